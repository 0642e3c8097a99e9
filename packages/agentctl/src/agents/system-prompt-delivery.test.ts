import { systemPromptDelivery, withPreamble } from './system-prompt-delivery';

describe('systemPromptDelivery', () => {
  test.each([
    [true, 'Be brief.', false, 'spec_append'],
    [false, 'Be brief.', false, 'first_prompt'],
    [true, 'Be brief.', true, 'kept'],
    [false, 'Be brief.', true, 'kept'],
    [true, '  ', false, 'none'],
  ] as const)('systemPrompt capability %s, prompt %j, loaded %s: %s', (systemPrompt, text, loaded, expected) => {
    expect(systemPromptDelivery({ systemPrompt }, text, loaded)).toBe(expected);
  });

  test('the preamble leads, marked, and the prompt follows unchanged', () => {
    expect(withPreamble(' Be brief.\n', 'Fix the test')).toBe(
      '<kandev-instructions>\nBe brief.\n</kandev-instructions>\n\nFix the test',
    );
  });
});
