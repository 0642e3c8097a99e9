import fc from 'fast-check';
import { normalizeProvider, normalizeProviderSet, PROVIDERS, providersFromWire, providerToWire } from './provider';

// Strings that look like providers: allowlisted names in any case with whitespace around, plus noise.
const caseVariant = (name: string) =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((upper) => [...name].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch)).join(''));
const padded = (s: fc.Arbitrary<string>) =>
  fc.tuple(fc.constantFrom('', ' ', '\t', '  \n'), s, fc.constantFrom('', ' ', '\n')).map(([a, b, c]) => a + b + c);
const providerish = fc.oneof(
  padded(fc.constantFrom(...PROVIDERS).chain(caseVariant)),
  fc.constantFrom('', '   ', 'local', 'bitbucket', 'gitea', 'github.com', 'git hub', 'gitlab-ce'),
  fc.string(),
);

describe('normalizeProvider', () => {
  test.each([
    ['github', 'github'],
    ['GitHub', 'github'],
    ['  GITLAB\n', 'gitlab'],
    ['', null],
    ['   ', null],
    ['local', null],
    ['bitbucket', null],
    ['github.com', null],
  ])('%j -> %j', (input, expected) => {
    expect(normalizeProvider(input)).toBe(expected);
  });

  test('non-strings are no provider', () => {
    expect(normalizeProvider(undefined)).toBeNull();
    expect(normalizeProvider(1)).toBeNull();
    expect(normalizeProvider(null)).toBeNull();
  });
});

describe('normalizeProviderSet', () => {
  test('result is allowlisted, deduplicated and in canonical order', () => {
    fc.assert(
      fc.property(fc.array(providerish), (values) => {
        const set = normalizeProviderSet(values);
        expect(new Set(set).size).toBe(set.length);
        expect(set.every((p) => (PROVIDERS as readonly string[]).includes(p))).toBe(true);
        expect(set).toEqual(PROVIDERS.filter((p) => set.includes(p)));
      }),
    );
  });

  test('a provider is in the set exactly when some value normalises to it', () => {
    fc.assert(
      fc.property(fc.array(providerish), (values) => {
        const expected = PROVIDERS.filter((p) => values.some((v) => v.trim().toLowerCase() === p));
        expect(normalizeProviderSet(values)).toEqual(expected);
      }),
    );
  });

  test('order and repetition of the input do not matter', () => {
    const valuesAndPermutation = fc
      .array(providerish)
      .chain((values) =>
        fc
          .shuffledSubarray(values, { minLength: values.length, maxLength: values.length })
          .map((shuffled) => [values, shuffled] as const),
      );
    fc.assert(
      fc.property(valuesAndPermutation, fc.array(fc.nat()), ([values, shuffled], picks) => {
        const repeated = [...values, ...picks.map((i) => values[i % Math.max(values.length, 1)] ?? '')];
        expect(normalizeProviderSet(shuffled)).toEqual(normalizeProviderSet(values));
        expect(normalizeProviderSet(repeated)).toEqual(normalizeProviderSet(values));
      }),
    );
  });

  test('unknown, blank and local values add nothing to a set', () => {
    fc.assert(
      fc.property(
        fc.array(providerish),
        fc.array(fc.constantFrom('', ' ', 'local', 'bitbucket', 'unknown')),
        (a, junk) => {
          expect(normalizeProviderSet([...a, ...junk])).toEqual(normalizeProviderSet(a));
        },
      ),
    );
  });
});

describe('providersFromWire', () => {
  test('round-trips every provider set', () => {
    fc.assert(
      fc.property(fc.subarray([...PROVIDERS]), (set) => {
        expect(providersFromWire(set.map(providerToWire))).toEqual(set);
      }),
    );
  });

  test('ignores UNSPECIFIED and enum numbers it does not know (a newer backend)', () => {
    expect(providersFromWire(['PROVIDER_UNSPECIFIED', 7, 'PROVIDER_GITLAB', 3, 'PROVIDER_GITLAB'])).toEqual(['gitlab']);
    expect(providersFromWire([42])).toEqual([]);
  });
});
