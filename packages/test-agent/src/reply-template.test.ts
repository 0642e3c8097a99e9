import { renderReply, unknownPlaceholders } from './reply-template';

describe('renderReply', () => {
  test.each([
    ['no placeholders', 'plain', 'plain'],
    ['both, repeated, with inner spaces', '{{ordinal}}:{{prompt}}|{{ prompt }}', '2:hello|hello'],
    ['an unknown name is left as written', '{{other}} {{prompt}}', '{{other}} hello'],
  ])('%s', (_name, text, expected) => {
    expect(renderReply(text, { prompt: 'hello', ordinal: 2 })).toBe(expected);
  });

  test('a prompt that itself holds a placeholder is echoed verbatim, not expanded again', () => {
    expect(renderReply('got: {{prompt}}', { prompt: 'say {{ordinal}}', ordinal: 7 })).toBe('got: say {{ordinal}}');
  });
});

describe('unknownPlaceholders', () => {
  test('names every {{...}} that is not prompt or ordinal', () => {
    expect(unknownPlaceholders('{{prompt}} {{ ordinal }} {{promt}} {{}}')).toEqual(['promt', '']);
  });
});
