import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import fc from 'fast-check';
import { parseInput, refusedText } from './parse';

const holdsNul = (value: unknown): boolean => refusedText(value) !== undefined;

const Schema = z.object({ name: z.string().min(1), tags: z.array(z.string()).optional() }).strict();

function failure(value: unknown): AppError {
  try {
    parseInput(Schema, value, 'request body');
  } catch (error) {
    if (error instanceof AppError) return error;
  }
  throw new Error('expected an AppError');
}

describe('parseInput', () => {
  test('returns the parsed value', () => {
    expect(parseInput(Schema, { name: 'x' }, 'request body')).toEqual({ name: 'x' });
  });

  test('invalid_argument with every issue as {path, message}', () => {
    const error = failure({ name: '', tags: [1], extra: true });
    expect(error.code).toBe('invalid_argument');
    expect(error.message).toMatch(/^invalid request body: /);
    const issues = (error.details as { issues: { path: string; message: string }[] }).issues;
    expect(issues.map((i) => i.path).sort()).toEqual(['', 'name', 'tags.0']);
    for (const issue of issues) expect(typeof issue.message).toBe('string');
  });

  test('a non-object body is an issue at the root', () => {
    expect(failure(undefined).details).toEqual({ issues: [{ path: '', message: expect.any(String) }] });
  });
});

describe('refusedText: NUL', () => {
  const noNul = fc.string().filter((text) => !text.includes('\u0000'));
  const json = fc.letrec((tie) => ({
    value: fc.oneof(noNul, fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(noNul, tie('value'), { maxKeys: 4 }),
  })).value;

  test('JSON without NUL holds none', () => {
    fc.assert(fc.property(json, (value) => !holdsNul(value)));
  });

  test('a NUL in any string, value or key, is found', () => {
    fc.assert(
      fc.property(json, noNul, noNul, (value, before, after) => {
        const nul = `${before}\u0000${after}`;
        return holdsNul({ wrapped: [value, nul] }) && holdsNul({ [nul]: value }) && holdsNul(nul);
      }),
    );
  });

  test('however deep the NUL is nested', () => {
    const nest = (innermost: string): unknown => {
      let deep: unknown = [innermost];
      for (let level = 0; level < 10_000; level += 1) deep = level % 2 === 0 ? { next: deep } : [1, deep];
      return deep;
    };
    expect(holdsNul(nest('\u0000'))).toBe(true);
    expect(holdsNul(nest('x'))).toBe(false);
  });
});

describe('refusedText: lone surrogates', () => {
  // Well-formed text: whole code points, astral ones (a surrogate pair) included.
  const wellFormed = fc.string({ unit: 'grapheme' }).filter((text) => !text.includes('\u0000'));
  const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));
  const json = fc.letrec((tie) => ({
    value: fc.oneof(wellFormed, fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(wellFormed, tie('value'), { maxKeys: 4 }),
  })).value;

  test('well-formed text, astral characters included, is accepted', () => {
    expect(refusedText({ emoji: '\u{1F600}', pair: '\ud83d\ude00' })).toBeUndefined();
    fc.assert(fc.property(json, (value) => refusedText(value) === undefined));
  });

  test('any string holding an unpaired surrogate, value or key, is refused', () => {
    fc.assert(
      fc.property(json, wellFormed, loneSurrogate, wellFormed, (value, before, unit, after) => {
        // Between two ASCII letters the unit can never pair with a neighbour.
        const bad = `${before}a${unit}b${after}`;
        return [{ wrapped: [value, bad] }, { [bad]: value }, bad].every(
          (holder) => refusedText(holder) === 'text must be well-formed Unicode (no unpaired UTF-16 surrogates)',
        );
      }),
    );
    expect(refusedText(JSON.parse('{"title":"a\\ud800b"}'))).toBeDefined();
    expect(refusedText('\udc00\ud800')).toBeDefined(); // reversed: two lone units, not a pair
  });
});
