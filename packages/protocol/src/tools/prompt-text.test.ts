import fc from 'fast-check';
import { isAppError } from '../errors';
import { assertPromptText, isBlankText, MAX_PROMPT_LENGTH, promptText } from './prompt-text';

// Every character that is whitespace to JavaScript (`\s`, String.prototype.trim) or to Unicode
// (White_Space): the probe that found the wedge used ' ', '\t\n' and '\u00a0'.
const WHITESPACE = [
  ' ',
  '\t',
  '\n',
  '\v',
  '\f',
  '\r',
  '\u0085',
  '\u00a0',
  '\u1680',
  '\u2000',
  '\u2001',
  '\u2002',
  '\u2003',
  '\u2004',
  '\u2005',
  '\u2006',
  '\u2007',
  '\u2008',
  '\u2009',
  '\u200a',
  '\u2028',
  '\u2029',
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
];

const blankArb = fc.array(fc.constantFrom(...WHITESPACE), { maxLength: 40 }).map((chars) => chars.join(''));
/** A blank text with one visible character somewhere in it. */
const sayingArb = fc
  .tuple(
    blankArb,
    fc.string({ minLength: 1, maxLength: 1 }).filter((c) => !isBlankText(c)),
    blankArb,
  )
  .map(([before, c, after]) => `${before}${c}${after}`);

describe('the prompt text rule', () => {
  test.each([[''], ['   '], ['\t\n'], ['\u00a0'], ['\u0085'], ['\ufeff \u3000']])('%j is blank', (text) => {
    expect(isBlankText(text)).toBe(true);
    expect(promptText().safeParse(text).success).toBe(false);
    expect(() => assertPromptText(text)).toThrow(/must not be blank/);
  });

  test('whitespace of any kind is blank; one other character makes it a prompt (fast-check)', () => {
    fc.assert(
      fc.property(blankArb, (text) => {
        expect(isBlankText(text)).toBe(true);
        expect(promptText().safeParse(text).success).toBe(false);
      }),
      { seed: 1414, numRuns: 200 },
    );
    fc.assert(
      fc.property(sayingArb, (text) => {
        expect(isBlankText(text)).toBe(false);
        // Stored as given: the rule checks, it never trims.
        expect(promptText().parse(text)).toBe(text);
        expect(() => assertPromptText(text)).not.toThrow();
      }),
      { seed: 1414, numRuns: 200 },
    );
  });

  test('blank is a superset of what trim() and \\S call blank, so agentctl never refuses what passes', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8, unit: 'binary' }), (text) => {
        if (text.trim() === '' || !/\S/.test(text)) expect(isBlankText(text)).toBe(true);
      }),
      { seed: 1414, numRuns: 500 },
    );
  });

  test('too long is refused as invalid_argument, like blank', () => {
    const long = 'x'.repeat(MAX_PROMPT_LENGTH + 1);
    expect(promptText().safeParse(long).success).toBe(false);
    let thrown: unknown;
    try {
      assertPromptText(long);
    } catch (error) {
      thrown = error;
    }
    expect(isAppError(thrown) && thrown.code).toBe('invalid_argument');
  });
});
