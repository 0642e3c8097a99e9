import fc from 'fast-check';
import { PROVIDERS } from '@kandev/protocol';
import { taskProviders } from './provider-set';

// Stored provider values as they could appear on repository rows (normalised or not, or none).
const storedProvider = fc.oneof(
  fc.constantFrom<string | null>('github', 'gitlab', null, 'GitLab', ' github ', 'bitbucket', 'local', ''),
  fc.string(),
);
const repositories = fc.array(storedProvider, { maxLength: 8 });

describe('taskProviders', () => {
  test.each([
    [[], []],
    [['github'], ['github']],
    [
      ['gitlab', 'github'],
      ['github', 'gitlab'],
    ],
    [[null, 'gitlab'], ['gitlab']],
    [['bitbucket', null, ''], []],
    [
      ['gitlab', 'gitlab', 'github', 'github'],
      ['github', 'gitlab'],
    ],
  ] as [(string | null)[], string[]][])('%j -> %j', (input, expected) => {
    expect(taskProviders(input)).toEqual(expected);
  });

  test('the union over every repository: each known provider present anywhere is in the set, nothing else', () => {
    fc.assert(
      fc.property(repositories, (providers) => {
        const present = new Set(providers.map((p) => p?.trim().toLowerCase()));
        expect(taskProviders(providers)).toEqual(PROVIDERS.filter((p) => present.has(p)));
      }),
    );
  });

  test('the primary repository has no weight: order never matters', () => {
    fc.assert(
      fc.property(repositories, fc.nat(), (providers, rotation) => {
        const k = providers.length === 0 ? 0 : rotation % providers.length;
        const rotated = [...providers.slice(k), ...providers.slice(0, k)];
        expect(taskProviders(rotated)).toEqual(taskProviders(providers));
        expect(taskProviders([...providers].reverse())).toEqual(taskProviders(providers));
      }),
    );
  });

  test('attaching another repository never removes a provider', () => {
    fc.assert(
      fc.property(repositories, storedProvider, (providers, added) => {
        expect(taskProviders([...providers, added])).toEqual(expect.arrayContaining(taskProviders(providers)));
      }),
    );
  });
});
