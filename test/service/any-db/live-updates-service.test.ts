// The live-update services in process, on a fresh SQLite file, with a fake agentctl: one provider-set
// query per batch (counted with knex's 'query' event), what each agentctl answer records, and the
// reconciler's bounded retries.
import { AppError } from '@kandev/protocol';
import {
  type AgentSession,
  createInProcessBackend,
  createLogger,
  ENDPOINT,
  FakeAgentctl,
  fakeAgentctlPort,
  jsonColumn,
  launchConfigFor,
  PROVIDER_SET_QUERY,
  repositoryRow,
  SessionReconciler,
  sessionRow,
  SingleProcess,
  taskRow,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { waitUntil } from '../../helpers/wait';

const NOW = '2026-11-30T10:00:00.000Z';
const WRITE = /^\s*(insert|update|delete)\b/i;
/** SessionStore.findById. */
/** A read of session rows by id (one, or many at once). */
const SESSION_BY_ID = /^select .* from [`"]sessions[`"] where [`"]id[`"] (= (\?|\$1)|in \()/i;

/** agentctl's registry in miniature: revisions only move forward. */
describe('live-update services (in process, fake agentctl)', () => {
  const cleanup = useCleanup();

  async function setup(options: { maxAttempts?: number } = {}) {
    const agentctl = new FakeAgentctl();
    const { db, backend } = await createInProcessBackend(cleanup, {
      clock: () => new Date(NOW),
      agentctl: fakeAgentctlPort(agentctl),
      config: { refreshRetry: { baseMs: 1, maxDelayMs: 4, maxAttempts: options.maxAttempts ?? 3 } },
    });
    const { uow, reconciler, sources, pusher, refresh } = backend;
    const sql: string[] = [];
    db.on('query', (query: { sql: string }) => sql.push(query.sql));
    await uow.read.workspaces.insert({ id: 'w', name: 'w', createdAt: NOW });
    return { db, uow, agentctl, reconciler, sources, pusher, refresh, sql };
  }

  type Env = Awaited<ReturnType<typeof setup>>;

  async function task(env: Env, id: string): Promise<void> {
    await env.uow.read.tasks.insert(taskRow(id, 'w', NOW));
  }

  /** A session agentctl holds at revision 1 with no providers (idle unless told otherwise). */
  async function runningSession(
    env: Env,
    id: string,
    taskId: string,
    state: AgentSession['state'] = 'waiting_for_input',
  ) {
    const config = launchConfigFor({ id, taskId, workspaceId: 'w' });
    const row = { state, agentctlAddress: ENDPOINT.grpcAddress, at: NOW };
    await env.uow.read.sessions.insert(sessionRow(config, row));
    env.agentctl.held.set(id, config);
  }

  const remote = (path: string) => ({ remote_url: `https://${path}` });
  const providerQueries = (sql: readonly string[]) => sql.filter((q) => PROVIDER_SET_QUERY.test(q)).length;

  test('a batch of five repositories: ONE provider-set query, one push per live session', async () => {
    const env = await setup();
    await task(env, 't');
    await runningSession(env, 's1', 't');
    await runningSession(env, 's2', 't', 'running'); // a turn in progress: still pushed
    await runningSession(env, 'gone', 't', 'failed');
    env.sql.length = 0;
    const sources = ['github.com/a/1', 'gitlab.com/a/2', 'github.com/a/3', 'gitlab.com/a/4', 'gitlab.com/a/5'];
    const batch = await env.sources.add('t', { sources: sources.map(remote) });

    expect(providerQueries(env.sql)).toBe(1);
    expect(batch.added).toHaveLength(5);
    expect(batch.refresh).toEqual({
      status: 'applied',
      sessions: [
        { sessionId: 's1', status: 'applied', revision: 2 },
        { sessionId: 's2', status: 'applied', revision: 2 },
      ],
    });
    expect(env.agentctl.pushes().sort()).toEqual([
      'ProviderUpdate s1 github+gitlab 2',
      'ProviderUpdate s2 github+gitlab 2',
    ]);
    expect(await env.uow.read.sessions.findById('s1')).toMatchObject({
      revision: 2,
      appliedRevision: 2,
      appliedProviders: ['github', 'gitlab'],
    });
    expect(await env.uow.read.sessions.findById('gone')).toMatchObject({ revision: 1, state: 'failed' });
    const batchIds = await env.db('task_repositories').where({ task_id: 't' }).distinct('batch_id');
    expect(batchIds).toEqual([{ batch_id: batch.batchId }]);
  });

  test('new repositories: one insert each, not read back; a repository named twice is registered once', async () => {
    const env = await setup();
    await task(env, 't');
    env.sql.length = 0;
    const batch = await env.sources.add('t', {
      sources: [remote('github.com/a/1'), remote('gitlab.com/a/2'), remote('github.com/a/1.git')],
    });

    expect(batch.added.map((a) => a.repository.identityKey)).toEqual(['github.com/a/1', 'gitlab.com/a/2']);
    const repositoryStatements = env.sql.filter((q) =>
      /^\s*(insert into|select .* from) [`"]repositories[`"]/i.test(q),
    );
    // The lookup of the batch's identities, then the two inserts: nothing reads a new row back.
    expect(repositoryStatements).toHaveLength(3);
    expect(repositoryStatements.slice(1).every((q) => /^\s*insert/i.test(q))).toBe(true);
    const stored = await env.uow.read.repositories.findByIds(batch.added.map((a) => a.repository.id));
    expect(stored.sort((a, b) => a.identityKey.localeCompare(b.identityKey))).toEqual(
      batch.added.map((a) => a.repository),
    );
  });

  test('a batch reads everything before its first write; its event lists the repositories in attach order', async () => {
    const env = await setup();
    await task(env, 't');
    await runningSession(env, 's1', 't');
    for (const [id, provider] of [
      ['r1', 'github'],
      ['r2', 'gitlab'],
      ['r3', 'github'],
      ['r4', 'github'],
    ] as const) {
      await env.uow.read.repositories.insert(repositoryRow(id, 'w', NOW, { provider }));
    }
    const byId = (...ids: string[]) => ({ sources: ids.map((id) => ({ repository_id: id })) });
    // The clock stands still: both batches attach at NOW, so attach order is the ids' order (r1 to r4),
    // not the order of the batches or of their sources.
    await env.sources.add('t', byId('r3', 'r1'));
    env.sql.length = 0;
    const batch = await env.sources.add('t', byId('r4', 'r2'));

    const transaction = env.sql.slice(
      0,
      env.sql.findIndex((q) => /^\s*commit\b/i.test(q)),
    );
    const firstWrite = transaction.findIndex((q) => WRITE.test(q));
    expect(firstWrite).toBeGreaterThan(0);
    // A read after the first write (the replica signal's `select pg_notify` is a write: it goes with COMMIT).
    const reads = transaction.slice(firstWrite).filter((q) => /^\s*select\b/i.test(q) && !/pg_notify/.test(q));
    expect(reads).toEqual([]);
    expect(providerQueries(transaction)).toBe(1);
    const event = await env.db('events').where({ type: 'task.updated' }).orderBy('id', 'desc').first();
    const { task: view } = jsonColumn(event.payload) as { task: { repository_ids: string[]; providers: string[] } };
    const attached = await env.uow.read.tasks.attachedRepositories('t');
    expect(attached.map((a) => a.repositoryId)).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(view.repository_ids).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(view.providers).toEqual(['github', 'gitlab']);
    expect(batch.refresh.sessions).toEqual([{ sessionId: 's1', status: 'applied', revision: 3 }]);
    expect(env.agentctl.pushes()).toContain('ProviderUpdate s1 github+gitlab 3');
  });

  test('dispatched: the push is on its way when the change answers; settle() waits for its acknowledgement', async () => {
    const env = await setup();
    await task(env, 't');
    await runningSession(env, 's1', 't');
    await runningSession(env, 's2', 't');
    const batch = await env.sources.add('t', { sources: [remote('gitlab.com/a/1')] }, 'dispatched');

    expect(batch.refresh).toEqual({
      status: 'dispatched',
      sessions: [
        { sessionId: 's1', status: 'dispatched', revision: 2 },
        { sessionId: 's2', status: 'dispatched', revision: 2 },
      ],
    });
    expect(env.agentctl.pushes()).toEqual(['ProviderUpdate s1 gitlab 2', 'ProviderUpdate s2 gitlab 2']);
    await env.refresh.settle();
    for (const id of ['s1', 's2']) {
      expect(await env.uow.read.sessions.findById(id)).toMatchObject({ revision: 2, appliedRevision: 2 });
    }
    // Nothing to push: not_needed, and nothing left in flight.
    const again = await env.sources.add('t', { sources: [remote('gitlab.com/a/1')] }, 'dispatched');
    expect(again.refresh.status).toBe('not_needed');
    await env.refresh.settle();
    expect(env.agentctl.pushes()).toHaveLength(2);
  });

  test('1,001 live sessions: pushes in calls of 500, each answer recorded in a transaction of its own', async () => {
    const env = await setup();
    await task(env, 't');
    const ids = Array.from({ length: 1001 }, (_, i) => `s${String(i).padStart(4, '0')}`);
    for (const id of ids) await runningSession(env, id, 't');
    env.sql.length = 0;
    const batch = await env.sources.add('t', { sources: [remote('gitlab.com/a/1')] });

    expect(batch.refresh.status).toBe('applied');
    expect(batch.refresh.sessions.filter((session) => session.status === 'applied')).toHaveLength(1001);
    expect(env.agentctl.providerCallSizes).toEqual([500, 500, 1]);
    // The change's own transaction, then one per answered call.
    expect(env.sql.filter((q) => /^\s*commit\b/i.test(q))).toHaveLength(4);
    expect(env.sql.filter((q) => SESSION_BY_ID.test(q))).toHaveLength(3);
    const rows = await env.uow.read.sessions.findByIds(ids);
    expect([...rows.values()].filter((row) => row.appliedRevision === 2)).toHaveLength(1001);
  });

  test('a push goes to the agentctl the plan read: the session row is read once more, to acknowledge', async () => {
    const env = await setup();
    await task(env, 't');
    await runningSession(env, 's1', 't');
    env.sql.length = 0;
    const batch = await env.sources.add('t', { sources: [remote('github.com/a/1')] });

    expect(batch.refresh.status).toBe('applied');
    expect(env.agentctl.calls).toEqual(['ProviderUpdate s1 github 2']); // no probe: agentctl's answer is the state
    expect(env.sql.filter((q) => SESSION_BY_ID.test(q))).toHaveLength(1);
  });

  test('a session resumed onto another agentctl since the plan is not failed by the push: it is retried', async () => {
    const env = await setup({ maxAttempts: 0 });
    await task(env, 't');
    await runningSession(env, 's1', 't');
    const before = await env.uow.read.sessions.findById('s1');
    // The plan read the session on an agentctl that is gone now; its row records the live one.
    const planned = { id: 's1', executor: 'local', agentctlAddress: '127.0.0.1:9' };
    const result = await env.pusher.sync({ session: planned, providers: ['github'], revision: 2 });

    expect(result).toMatchObject({ sessionId: 's1', status: 'failed', retry: true });
    expect(await env.uow.read.sessions.findById('s1')).toEqual(before);
    expect(env.agentctl.calls).toEqual([]);
  });

  test('a batch that adds nothing writes nothing and pushes nothing; a removal is one query too', async () => {
    const env = await setup();
    await task(env, 't');
    await runningSession(env, 's1', 't');
    const first = await env.sources.add('t', { sources: [remote('github.com/a/1'), remote('gitlab.com/a/2')] });
    env.sql.length = 0;
    env.agentctl.calls.length = 0;

    const again = await env.sources.add('t', {
      sources: [remote('github.com/a/1'), { repository_id: first.added[1]?.repository.id ?? '' }],
    });
    expect(again).toMatchObject({
      batchId: null,
      added: [],
      providers: ['github', 'gitlab'],
      refresh: { status: 'not_needed' },
    });
    expect(env.sql.filter((q) => WRITE.test(q))).toEqual([]);
    expect(providerQueries(env.sql)).toBe(1);
    expect(env.agentctl.calls).toEqual([]);

    env.sql.length = 0;
    const removal = await env.sources.remove('t', first.added[1]?.repository.id ?? '');
    expect(removal.providers).toEqual(['github']);
    expect(providerQueries(env.sql)).toBe(1);
    expect(env.agentctl.pushes()).toEqual(['ProviderUpdate s1 github 3']);
  });

  test('agentctl answers: ahead is recorded (no retry), a lost session is failed, unreachable is recorded', async () => {
    const env = await setup({ maxAttempts: 0 });
    for (const id of ['ahead', 'lost', 'down']) {
      await task(env, id);
      await runningSession(env, id, id);
    }
    const ahead = env.agentctl.held.get('ahead');
    if (ahead !== undefined) env.agentctl.held.set('ahead', { ...ahead, revision: 10 });
    env.agentctl.held.delete('lost');
    await env.db('prompt_queue').insert({
      id: 'in-flight',
      task_id: 'lost',
      session_id: 'lost',
      prompt: 'p',
      source: 'operator',
      status: 'dispatched',
      created_at: NOW,
      dispatched_at: NOW,
    });

    const aheadBatch = await env.sources.add('ahead', { sources: [remote('github.com/a/1')] });
    expect(aheadBatch.refresh.sessions[0]).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/revision 10/),
    });
    expect(await env.uow.read.sessions.findById('ahead')).toMatchObject({
      state: 'waiting_for_input',
      appliedRevision: 1,
    });

    const lostBatch = await env.sources.add('lost', { sources: [remote('github.com/a/2')] });
    expect(lostBatch.refresh.sessions[0]).toMatchObject({
      status: 'failed',
      reason: 'agentctl lost the session; resume it',
    });
    expect(await env.uow.read.sessions.findById('lost')).toMatchObject({
      state: 'failed',
      lastError: 'agentctl lost the session; resume it',
    });
    // Its turn cannot end any more: the prompt in flight fails (a resume drains what is queued).
    expect(await env.uow.read.promptQueue.findById('in-flight')).toMatchObject({
      status: 'failed',
      error: 'agentctl no longer holds this session',
    });

    env.agentctl.failure = new AppError('deadline_exceeded', 'agentctl StreamProviderUpdates: Deadline exceeded');
    const downBatch = await env.sources.add('down', { sources: [remote('github.com/a/3')] });
    expect(downBatch.refresh.status).toBe('failed');
    expect(await env.uow.read.sessions.findById('down')).toMatchObject({
      state: 'waiting_for_input',
      revision: 2,
      appliedRevision: 1,
      refreshAttempts: 1,
      refreshError: expect.stringMatching(/Deadline exceeded/),
    });
    // No probe: each push went out and agentctl's answer decided the case; the ahead one kept its set.
    expect(env.agentctl.pushes()).toEqual([
      'ProviderUpdate ahead github 2',
      'ProviderUpdate lost github 2',
      'ProviderUpdate down github 2',
    ]);
    expect(env.agentctl.held.get('ahead')?.revision).toBe(10);
  });

  test('the reconciler: one pending retry per session, never gives up on a live session, repairs when agentctl answers', async () => {
    const env = await setup({ maxAttempts: 3 });
    await task(env, 't');
    await runningSession(env, 's', 't');
    env.agentctl.failure = new AppError('unavailable', 'agentctl StreamProviderUpdates: connection refused');
    await env.sources.add('t', { sources: [remote('gitlab.com/a/1')] }); // fails, schedules the reconciler
    for (let i = 0; i < 5; i += 1) env.reconciler.schedule('s'); // no storm: still one pending retry
    // Past maxAttempts (3) and past the old limit (8): still retrying, one retry pending.
    await waitUntil(async () => ((await env.uow.read.sessions.findById('s'))?.refreshAttempts ?? 0) >= 12, {
      timeoutMs: 10_000,
      what: 'twelve failed attempts',
    });

    env.agentctl.failure = undefined;
    await waitUntil(async () => (await env.uow.read.sessions.findById('s'))?.appliedRevision === 2, {
      timeoutMs: 10_000,
      what: 'the next retry to repair the session',
    });
    expect(await env.uow.read.sessions.findById('s')).toMatchObject({
      revision: 2,
      appliedRevision: 2,
      refreshError: null,
      refreshAttempts: 0,
    });
    expect(new Set(env.agentctl.pushes())).toEqual(new Set(['ProviderUpdate s gitlab 2'])); // only ever revision 2
    expect(env.agentctl.held.get('s')).toMatchObject({ revision: 2, providers: ['gitlab'] });
    expect(env.reconciler.hasPendingRetry('s')).toBe(false);
  });

  test('the reconciler (stepped timers): retries past the old 8-attempt limit, every delay within the cap', async () => {
    const env = await setup({ maxAttempts: 3 });
    await task(env, 't');
    await runningSession(env, 's', 't');
    env.agentctl.failure = new AppError('unavailable', 'agentctl StreamProviderUpdates: connection refused');
    const pending: { fire: () => void; delayMs: number }[] = [];
    const delays: number[] = [];
    const policy = { baseMs: 100, maxDelayMs: 1_000, maxAttempts: 3 };
    const reconciler = new SessionReconciler({
      uow: env.uow,
      pusher: env.pusher,
      policy,
      logger: createLogger('silent'),
      random: () => 1,
      replicas: new SingleProcess('only'),
      startTimer: (fire, delayMs) => {
        pending.push({ fire, delayMs });
        delays.push(delayMs);
        return { cancel: () => undefined };
      },
    });
    cleanup.defer(() => reconciler.stop());
    await env.uow.read.sessions.updateDesiredMany([{ id: 's', revision: 2 }], ['gitlab'], NOW);
    reconciler.schedule('s');
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      // Barrier: the previous retry ran to its end and scheduled the next one.
      const next = await waitUntil(() => pending.shift(), { timeoutMs: 5_000, what: `retry timer #${attempt}` });
      next.fire();
    }
    await waitUntil(() => pending.length === 1, { timeoutMs: 5_000, what: 'the 21st retry scheduled' });
    expect(delays).toHaveLength(21);
    expect(delays.slice(0, 5)).toEqual([100, 200, 400, 800, 1_000]);
    expect(delays.every((ms) => ms <= policy.maxDelayMs)).toBe(true);
    expect(env.agentctl.calls.filter((c) => c === 'ProviderUpdate s gitlab 2')).toHaveLength(20);
  });
});
