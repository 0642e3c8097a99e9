import fc from 'fast-check';
import { PROVIDERS } from '@kandev/protocol';
import { hasProvider, providerSetOf, sameProviderSet } from './provider-set';

// Stored provider values as they could appear on repository rows (normalised or not, or none).
const storedProvider = fc.oneof(
  fc.constantFrom<string | null>('github', 'gitlab', null, 'GitLab', ' github ', 'bitbucket', 'local', ''),
  fc.string(),
);
const repositories = fc.array(storedProvider, { maxLength: 8 });

describe('providerSetOf', () => {
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
    expect(providerSetOf(input)).toEqual(expected);
  });

  test('the union over every repository: each known provider present anywhere is in the set, nothing else', () => {
    fc.assert(
      fc.property(repositories, (providers) => {
        const present = new Set(providers.map((p) => p?.trim().toLowerCase()));
        expect(providerSetOf(providers)).toEqual(PROVIDERS.filter((p) => present.has(p)));
      }),
    );
  });

  test('the primary repository has no weight: order never matters', () => {
    fc.assert(
      fc.property(repositories, fc.nat(), (providers, rotation) => {
        const k = providers.length === 0 ? 0 : rotation % providers.length;
        const rotated = [...providers.slice(k), ...providers.slice(0, k)];
        expect(providerSetOf(rotated)).toEqual(providerSetOf(providers));
        expect(providerSetOf([...providers].reverse())).toEqual(providerSetOf(providers));
      }),
    );
  });

  test('attaching another repository never removes a provider', () => {
    fc.assert(
      fc.property(repositories, storedProvider, (providers, added) => {
        expect(providerSetOf([...providers, added])).toEqual(expect.arrayContaining(providerSetOf(providers)));
      }),
    );
  });
});

describe('hasProvider over the committed set', () => {
  test.each([
    [['github'], 'github', true],
    [['github'], 'gitlab', false],
    [[' GitLab ', null], 'gitlab', true],
    [[], 'github', false],
    [[null, 'local', 'bitbucket'], 'github', false],
  ] as const)('committed %j, %s -> %s', (committed, provider, expected) => {
    expect(hasProvider(providerSetOf(committed), provider)).toBe(expected);
  });

  test('allowed exactly for providers of the committed set, also right after a removal', () => {
    const stored = fc.array(fc.constantFrom<string | null>(...PROVIDERS, null, 'local', ' GITHUB '), { maxLength: 6 });
    fc.assert(
      fc.property(stored, fc.nat(), fc.constantFrom(...PROVIDERS), (before, index, provider) => {
        // The removal is committed; agentctl may still list `before`'s tools until it acknowledges.
        const committed = before.filter((_, i) => i !== index % Math.max(1, before.length));
        expect(hasProvider(providerSetOf(committed), provider)).toBe(providerSetOf(committed).includes(provider));
      }),
    );
  });
});

describe('sameProviderSet', () => {
  test('the same set exactly when the normalised sets list the same providers', () => {
    fc.assert(
      fc.property(repositories, repositories, (a, b) => {
        const [x, y] = [providerSetOf(a), providerSetOf(b)];
        expect(sameProviderSet(x, y)).toBe(x.join(',') === y.join(','));
      }),
    );
  });
});
