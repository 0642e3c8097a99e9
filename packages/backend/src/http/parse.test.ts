import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import { parseInput } from './parse';

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
