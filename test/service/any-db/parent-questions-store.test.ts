// Migration 008 and the parent-question store over real SQLite: existing prompts become ordinary ones,
// the status moves only from pending (compare-and-set), one pending question per session and one row
// per tool-call identity are enforced by the database itself, and the migration goes down cleanly.
import {
  createUnitOfWork,
  type Database,
  isUniqueViolation,
  migrateToLatest,
  MIGRATION_SOURCE,
  openTestDatabase,
  type ParentQuestion,
  TEST_SECRETS,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';

const NOW = '2026-12-01T10:00:00.000Z';

async function seed(db: Database): Promise<void> {
  await db('workspaces').insert({ id: 'w', name: 'w', created_at: NOW });
  for (const [id, parent] of [
    ['boss', null],
    ['kid', 'boss'],
  ] as const) {
    await db('tasks').insert({
      id,
      workspace_id: 'w',
      parent_id: parent,
      title: id,
      state: 'todo',
      autopilot: parent !== null,
      created_at: NOW,
      updated_at: NOW,
    });
  }
  await db('sessions').insert({
    id: 's-kid',
    task_id: 'kid',
    state: 'waiting_for_input',
    executor: 'local',
    revision: 1,
    launch_config: '{}',
    mcp_token_hash: 'h',
    surface: 'kanban_task',
    created_at: NOW,
    updated_at: NOW,
  });
}

function question(id: string, overrides: Partial<ParentQuestion> = {}): ParentQuestion {
  return {
    id,
    childTaskId: 'kid',
    childSessionId: 's-kid',
    childSessionTokenHash: 'h',
    parentTaskId: 'boss',
    callKey: `key-${id}`,
    callId: `call-${id}`,
    turnPromptId: null,
    questions: [{ id: 'q1', prompt: 'Which?' }],
    context: null,
    blockedReason: 'b',
    status: 'pending',
    closedReason: null,
    messageId: `m-${id}`,
    parentPromptId: `p-${id}`,
    answer: null,
    answeredByTaskId: null,
    answeredBySessionId: null,
    answerPromptId: null,
    createdAt: NOW,
    answeredAt: null,
    closedAt: null,
    ...overrides,
  };
}

async function violation(run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run();
    return false;
  } catch (error) {
    return isUniqueViolation(error);
  }
}

describe('parent questions in the store (SQLite)', () => {
  const cleanup = useCleanup();

  async function open(): Promise<Database> {
    const db = await openTestDatabase(tempDir(cleanup), cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    return db;
  }

  test('migration 008: queued prompts become ordinary ones; down drops the table and the column', async () => {
    const db = await open();
    for (let i = 0; i < 7; i += 1) await db.migrate.up({ migrationSource: MIGRATION_SOURCE });
    await seed(db);
    await db('prompt_queue').insert({
      id: 'p',
      task_id: 'kid',
      session_id: 's-kid',
      prompt: 'old',
      source: 'operator',
      status: 'queued',
      created_at: NOW,
    });
    const [, applied] = (await db.migrate.up({ migrationSource: MIGRATION_SOURCE })) as [number, string[]];
    expect(applied).toEqual(['20261201-008-parent-questions']);
    expect(await createUnitOfWork(db, TEST_SECRETS).read.promptQueue.findById('p')).toMatchObject({
      priority: 'normal',
    });

    await db('messages').insert({
      id: 'm',
      task_id: 'kid',
      session_id: 's-kid',
      type: 'parent_question',
      author: 'agent',
      content: 'c',
      metadata: '{}',
      created_at: NOW,
    });
    await db.migrate.down({ migrationSource: MIGRATION_SOURCE });
    expect(await db.schema.hasTable('parent_questions')).toBe(false);
    expect(await db.schema.hasColumn('prompt_queue', 'priority')).toBe(false);
    expect(await db('messages').where({ id: 'm' }).first()).toMatchObject({ type: 'message' });
  });

  test('one pending question per session and one row per call identity, enforced by the database', async () => {
    const db = await open();
    await migrateToLatest(db);
    await seed(db);
    const store = createUnitOfWork(db, TEST_SECRETS).read.parentQuestions;
    await store.insert(question('q1'));
    expect(await violation(() => store.insert(question('q2')))).toBe(true);
    expect(await violation(() => store.insert(question('q3', { callKey: 'key-q1', status: 'stale' })))).toBe(true);
    // Once the first is settled, the session may ask again.
    expect(await store.close('q1', 'superseded', 'operator_prompt', NOW)).toBe(true);
    await store.insert(question('q2'));
    expect(await store.findPendingForSession('s-kid')).toMatchObject({ id: 'q2' });
  });

  test('the status moves once, from pending only (compare-and-set)', async () => {
    const db = await open();
    await migrateToLatest(db);
    await seed(db);
    const store = createUnitOfWork(db, TEST_SECRETS).read.parentQuestions;
    await store.insert(question('q1'));
    const accepted = { answer: 'yes', byTaskId: 'boss', bySessionId: 's-boss', answerPromptId: 'a1', now: NOW };
    const results = await Promise.all([
      store.markAnswered('q1', accepted),
      store.markAnswered('q1', { ...accepted, answerPromptId: 'a2' }),
      store.close('q1', 'stale', 'session_ended', NOW),
      store.close('q1', 'superseded', 'task_message', NOW),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    // Any one of them may win (on PostgreSQL each runs on its own connection); the row is the winner's.
    const outcomes = [
      { status: 'answered', answerPromptId: 'a1', closedReason: null },
      { status: 'answered', answerPromptId: 'a2', closedReason: null },
      { status: 'stale', answerPromptId: null, closedReason: 'session_ended' },
      { status: 'superseded', answerPromptId: null, closedReason: 'task_message' },
    ];
    expect(await store.findById('q1')).toMatchObject(outcomes[results.indexOf(true)] ?? {});
    expect(await store.markAnswered('q1', accepted)).toBe(false);
    expect(await store.close('q1', 'stale', 'session_ended', NOW)).toBe(false);
  });
});
