import { askUserQuestionTool } from '@kandev/protocol';
import { AppError } from '@kandev/protocol';
import { effectiveState, parseAnswers, type Question, type QuestionItem, toQuestionItems } from './question';

const ITEMS: QuestionItem[] = [
  { id: 'db', prompt: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] },
  { id: 'q2', prompt: 'Anything else?' },
];

function refusal(body: unknown): string {
  try {
    parseAnswers(ITEMS, body);
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid_argument') return error.message;
    throw error;
  }
  throw new Error('expected invalid_argument');
}

describe('operator question answers', () => {
  test('an offered option and free text for a question without options', () => {
    const body = {
      answers: [
        { question_index: 1, text: 'Keep it small.' },
        { question_index: 0, option: 'Postgres' },
      ],
    };
    expect(parseAnswers(ITEMS, body)).toEqual([
      { question_index: 0, question_id: 'db', option: 'Postgres' },
      { question_index: 1, question_id: 'q2', text: 'Keep it small.' },
    ]);
  });

  test.each([
    ['no body', undefined, /invalid answer/],
    ['an unknown field', { answers: [{ question_index: 0, option: 'SQLite', extra: 1 }] }, /invalid answer/],
    ['a missing answer', { answers: [{ question_index: 0, option: 'SQLite' }] }, /question 1 needs exactly one/],
    [
      'two answers to one question',
      {
        answers: [
          { question_index: 0, option: 'SQLite' },
          { question_index: 0, option: 'Postgres' },
          { question_index: 1, text: 'x' },
        ],
      },
      /question 0 needs exactly one/,
    ],
    [
      'an option that was not offered',
      {
        answers: [
          { question_index: 0, option: 'MySQL' },
          { question_index: 1, text: 'x' },
        ],
      },
      /"MySQL" is not an option/,
    ],
    [
      'text for a question with options',
      {
        answers: [
          { question_index: 0, text: 'SQLite' },
          { question_index: 1, text: 'x' },
        ],
      },
      /has options/,
    ],
    [
      'an option for a free-text question',
      {
        answers: [
          { question_index: 0, option: 'SQLite' },
          { question_index: 1, option: 'x' },
        ],
      },
      /has no options/,
    ],
    [
      'an answer to a question that was not asked',
      {
        answers: [
          { question_index: 0, option: 'SQLite' },
          { question_index: 1, text: 'x' },
          { question_index: 2, text: 'y' },
        ],
      },
      /expected 2 answer/,
    ],
  ])('refuses %s', (_name, body, message) => {
    expect(refusal(body)).toMatch(message);
  });

  test('the tool schema: 1-4 questions, options 2-6 and unique, ids unique', () => {
    const ok = (args: unknown) => askUserQuestionTool.input.safeParse(args).success;
    expect(ok({ questions: [{ prompt: 'Why?' }] })).toBe(true);
    expect(ok({ questions: [] })).toBe(false);
    expect(ok({ questions: Array.from({ length: 5 }, () => ({ prompt: 'x' })) })).toBe(false);
    expect(ok({ questions: [{ prompt: 'x', options: [{ label: 'a' }] }] })).toBe(false);
    expect(ok({ questions: [{ prompt: 'x', options: [{ label: 'a' }, { label: 'a' }] }] })).toBe(false);
    expect(
      ok({
        questions: [
          { id: 'a', prompt: 'x' },
          { id: 'a', prompt: 'y' },
        ],
      }),
    ).toBe(false);
    expect(ok({ questions: [{ prompt: 'x' }], task_id: 't' })).toBe(false);
    expect(toQuestionItems({ questions: [{ prompt: 'x' }, { id: 'k', prompt: 'y' }] }).map((q) => q.id)).toEqual([
      'q1',
      'k',
    ]);
  });

  test('a pending question past its expiry reads as expired', () => {
    const question = { state: 'pending', expiresAt: '2026-11-30T10:00:00.000Z' } as Question;
    expect(effectiveState(question, '2026-11-30T09:59:59.999Z')).toBe('pending');
    expect(effectiveState(question, '2026-11-30T10:00:00.000Z')).toBe('expired');
    expect(effectiveState({ ...question, state: 'answered' }, '2026-12-01T00:00:00.000Z')).toBe('answered');
  });
});
