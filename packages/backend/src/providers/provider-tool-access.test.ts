import fc from 'fast-check';
import { PROVIDERS } from '@kandev/protocol';
import { canCallProviderTool } from './provider-tool-access';
import { taskProviders } from './provider-set';

describe('canCallProviderTool', () => {
  test.each([
    [['github'], 'github', true],
    [['github'], 'gitlab', false],
    [[' GitLab ', null], 'gitlab', true],
    [[], 'github', false],
    [[null, 'local', 'bitbucket'], 'github', false],
  ] as const)('committed %j, %s -> %s', (committed, provider, expected) => {
    expect(canCallProviderTool(committed, provider)).toBe(expected);
  });

  test('allowed exactly for providers of the committed set, also right after a removal', () => {
    const stored = fc.array(fc.constantFrom<string | null>(...PROVIDERS, null, 'local', ' GITHUB '), { maxLength: 6 });
    fc.assert(
      fc.property(stored, fc.nat(), fc.constantFrom(...PROVIDERS), (before, index, provider) => {
        // The removal is committed; agentctl may still list `before`'s tools until it acknowledges.
        const committed = before.filter((_, i) => i !== index % Math.max(1, before.length));
        expect(canCallProviderTool(committed, provider)).toBe(taskProviders(committed).includes(provider));
      }),
    );
  });
});
