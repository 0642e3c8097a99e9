import { messageTaskTool } from '@kandev/protocol';
import type { ParentQuestion } from './parent-question';
import { answerPromptText, parentPromptText, replyShape } from './parent-question-prompts';

const QUESTION: ParentQuestion = {
  id: 'q-1',
  childTaskId: 'kid',
  childSessionId: 's-kid',
  childSessionTokenHash: 'h',
  parentTaskId: 'me',
  callKey: 'k',
  callId: 'c',
  turnPromptId: 'p',
  questions: [
    {
      id: 'db',
      prompt: 'Which database?',
      options: [{ label: 'SQLite', description: 'embedded' }, { label: 'Postgres' }],
    },
    { id: 'q2', prompt: 'Anything else?' },
  ],
  context: 'We ship Friday.',
  blockedReason: 'cannot write the migration',
  status: 'pending',
  closedReason: null,
  messageId: 'm',
  parentPromptId: 'pp',
  answer: null,
  answeredByTaskId: null,
  answeredBySessionId: null,
  answerPromptId: null,
  createdAt: '2026-12-01T00:00:00.000Z',
  answeredAt: null,
  closedAt: null,
};

describe('parent question prompts', () => {
  test("the parent's prompt: who asks, the exact question and options, the id, the exact reply shape", () => {
    const text = parentPromptText(QUESTION, { taskId: 'kid', title: 'Add storage', sessionId: 's-kid' });
    expect(text).toContain('"Add storage" (task kid, session s-kid)');
    expect(text).toContain('question_id: q-1');
    expect(text).toContain('Blocked: cannot write the migration');
    expect(text).toContain('Context: We ship Friday.');
    expect(text).toContain('1. [db] Which database?\n   Options: "SQLite" (embedded) | "Postgres"');
    expect(text).toContain('2. [q2] Anything else?\n   Free-text answer.');
    expect(text).toContain(`message_task_kandev with:\n${replyShape(QUESTION)}`);
    expect(JSON.parse(replyShape(QUESTION))).toEqual({
      task_id: 'kid',
      reply_to_question_id: 'q-1',
      prompt: expect.any(String),
    });
  });

  test("the child's answer prompt: from which parent, to which question, the answer verbatim", () => {
    const text = answerPromptText(QUESTION, { taskId: 'me', title: 'Ship it' }, 'Postgres; nothing else.');
    expect(text.startsWith('[kandev answer to q-1] Your parent task "Ship it" (task me)')).toBe(true);
    expect(text).toContain('\n\nPostgres; nothing else.\n\n');
    expect(text).toContain('1. [db] Which database?');
  });
});

describe("the reply shape in the parent's prompt", () => {
  test('is a valid message_task_kandev call once the parent writes its answer', () => {
    const shown = JSON.parse(replyShape({ id: 'q-1', childTaskId: 'kid' })) as Record<string, unknown>;
    const call = { ...shown, prompt: 'Use Postgres.' };
    expect(Object.keys(shown).sort()).toEqual(['prompt', 'reply_to_question_id', 'task_id']);
    expect(messageTaskTool.input.safeParse(call).success).toBe(true);
  });
});
