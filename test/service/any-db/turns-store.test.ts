// The turn model's storage on SQLite: migration 007 maps existing rows, every state write is a
// compare-and-set (a stale writer changes nothing), and two backends' drainers racing on one database
// dispatch a prompt once.
import type { LaunchConfig } from '@kandev/protocol';
import {
  createUnitOfWork,
  type Database,
  migrateToLatest,
  MIGRATION_SOURCE,
  openTestDatabase,
  TEST_SECRETS,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';
import { createTurnHarness, FakeAgentctl } from '../../helpers/turn-harness';

const NOW = '2026-11-30T10:00:00.000Z';

const CONFIG: LaunchConfig = {
  sessionId: 's',
  taskId: 't',
  workspaceId: 'w',
  surface: 'kanban_task',
  questionCapability: 'user',
  providers: [],
  revision: 1,
  ownsTaskTitle: false,
  mcpToken: '',
  systemPrompt: 'p',
  agent: null,
};

async function seedBefore007(db: Database): Promise<void> {
  await db('workspaces').insert({ id: 'w', name: 'w', created_at: NOW });
  await db('tasks').insert({
    id: 't',
    workspace_id: 'w',
    title: 't',
    state: 'todo',
    autopilot: false,
    created_at: NOW,
    updated_at: NOW,
  });
  for (const [id, state] of [
    ['s-running', 'running'],
    ['s-stopped', 'stopped'],
    ['s-failed', 'failed'],
    ['s-starting', 'starting'],
  ]) {
    await db('sessions').insert({
      id,
      task_id: 't',
      state,
      executor: 'local',
      revision: 1,
      launch_config: JSON.stringify({ ...CONFIG, sessionId: id }),
      mcp_token_hash: 'ab'.repeat(32),
      surface: 'kanban_task',
      created_at: NOW,
      updated_at: NOW,
    });
  }
  await db('prompt_queue').insert({
    id: 'p',
    task_id: 't',
    session_id: 's-running',
    prompt: 'hello',
    source: 'operator',
    status: 'queued',
    created_at: NOW,
  });
}

describe('turn model storage (SQLite)', () => {
  const cleanup = useCleanup();

  async function open(): Promise<Database> {
    const db = await openTestDatabase(tempDir(cleanup), cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    return db;
  }

  test('migration 007: stopped -> cancelled, running -> waiting_for_input; new columns empty; down restores', async () => {
    const db = await open();
    for (let i = 0; i < 6; i += 1) await db.migrate.up({ migrationSource: MIGRATION_SOURCE });
    await seedBefore007(db);
    // 007 and every later migration; the downs below undo them all, the last one being 007.
    const applied = await migrateToLatest(db);
    expect(applied[0]).toBe('20261201-007-turn-model');

    const uow = createUnitOfWork(db, TEST_SECRETS);
    const states = async () =>
      Object.fromEntries(
        (await db('sessions').select('id', 'state')).map((r: { id: string; state: string }) => [r.id, r.state]),
      );
    expect(await states()).toEqual({
      's-running': 'waiting_for_input',
      's-stopped': 'cancelled',
      's-failed': 'failed',
      's-starting': 'starting',
    });
    expect(await uow.read.sessions.findById('s-running')).toMatchObject({ acpSessionId: null });
    expect(await uow.read.promptQueue.findById('p')).toMatchObject({
      status: 'queued',
      dispatchedAt: null,
      finishedAt: null,
      stopReason: null,
      error: null,
    });

    for (let i = 0; i < applied.length; i += 1) await db.migrate.down({ migrationSource: MIGRATION_SOURCE });
    expect(await states()).toEqual({
      's-running': 'running',
      's-stopped': 'stopped',
      's-failed': 'failed',
      's-starting': 'starting',
    });
    expect(await db.schema.hasColumn('sessions', 'acp_session_id')).toBe(true); // kept: see the migration
    expect(await db.schema.hasColumn('prompt_queue', 'dispatched_at')).toBe(false);
  });

  test('a stale writer changes nothing: the state is compared with the one it read', async () => {
    const db = await open();
    await migrateToLatest(db);
    await seedBefore007(db); // 'running' and 'stopped' here are written after 007: fix them up
    await db('sessions').where({ id: 's-running' }).update({ state: 'waiting_for_input' });
    const { sessions, promptQueue } = createUnitOfWork(db, TEST_SECRETS).read;
    const stale = await sessions.findById('s-running');
    if (stale === undefined) throw new Error('seeded session missing');

    expect(await sessions.advance(stale, { kind: 'turn_started' }, NOW)).toBe('running');
    // The same stale read again (a second writer): the row moved on, nothing is written.
    expect(await sessions.advance(stale, { kind: 'turn_started' }, NOW)).toBeNull();
    expect(await sessions.advance(stale, { kind: 'lost' }, NOW, { lastError: 'stale' })).toBeNull();
    expect(await sessions.findById('s-running')).toMatchObject({ state: 'running', lastError: null });
    // A fact that does not apply to the current state changes nothing either.
    expect(await sessions.advanceCurrent('s-failed', { kind: 'turn_finished' }, NOW)).toBeNull();

    expect(await promptQueue.claim('p', 's-running', NOW)).toBe(true);
    expect(await promptQueue.claim('p', 's-running', NOW)).toBe(false);
    expect(
      await promptQueue.finish('p', 's-other', { status: 'completed', stopReason: null, warning: null }, NOW),
    ).toBe(false);
    const completed = { status: 'completed' as const, stopReason: 'end_turn', warning: null };
    expect(await promptQueue.finish('p', 's-running', completed, NOW)).toBe(true);
    expect(await promptQueue.requeue('p', 's-running')).toBe(false); // finished prompts never wait again
    expect(await promptQueue.findById('p')).toMatchObject({ status: 'completed', stopReason: 'end_turn' });
  });

  test('two backends racing on one database: 20 kicks across both drainers dispatch once', async () => {
    const agentctl = new FakeAgentctl();
    const dataDir = tempDir(cleanup);
    const a = await createTurnHarness(cleanup, { dataDir, agentctl });
    const b = await createTurnHarness(cleanup, { dataDir, agentctl });
    a.attach();
    const id = await a.readySession();
    agentctl.detach(); // only the kicks below may dispatch
    await a.db('prompt_queue').insert({
      id: 'p1',
      task_id: (await a.uow.read.sessions.findById(id))?.taskId,
      session_id: id,
      prompt: 'once',
      source: 'operator',
      status: 'queued',
      created_at: NOW,
    });

    const kicks = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).turns.drainer.kick(id));
    await Promise.all(kicks);
    expect(agentctl.promptCalls).toEqual([{ sessionId: id, promptId: 'p1', outcome: 'delivered' }]);
    expect(await a.uow.read.promptQueue.findById('p1')).toMatchObject({ status: 'dispatched', sessionId: id });
    expect(await a.state(id)).toBe('running');
  });
});
