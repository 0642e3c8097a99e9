// Wake-ups across replicas (docs/replicas.md): two in-process backends on ONE PostgreSQL
// database. A tool call held on replica A (ask_user_question, a permission request asked of the
// operator or of the parent) settles when the answer is committed on replica B; an event stream on B
// sees what A commits; A's listener connection killed, the wake-up still arrives (resync); A gone, B
// takes its leases at once (presence). Runs only on PostgreSQL (the service-pg project): on SQLite
// there is one process and nothing to wake across.
import { randomUUID } from 'node:crypto';
import type { PermissionRequestInfo } from '@kandev/protocol';
import {
  createApp,
  createAuthMiddleware,
  createInProcessBackend,
  createLogger,
  createPostgresDatabase,
  ENDPOINT,
  FakeAgentctl,
  fakeAgentctlPort,
  type InProcessBackendOptions,
  type Database as Knex,
  launchConfigFor,
  listen,
  listenerConnectionOf,
  migrateToLatest,
  onPostgres,
  openTestDatabase,
  PgReplicaSignals,
  type Question,
  sessionRow,
  type ToolCallContext,
} from '@kandev/backend/testing';
import { ASK_USER, MESSAGE_TASK } from '../../helpers/autopilot';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';
import { SseStream } from '../../helpers/sse';
import { waitUntil } from '../../helpers/wait';

const TOKEN = 'replica-wakeups-token-0123456789abcdef';

/** A fresh, migrated database both replicas open (dropped at cleanup). */
async function freshDatabase(cleanup: Cleanup): Promise<Knex> {
  // Only in the service-pg project (test/service/postgres/): two processes need one server.
  if (!onPostgres()) throw new Error('replica wake-ups need PostgreSQL: run in the service-pg project');
  const db = await openTestDatabase(tempDir(cleanup), cleanup);
  cleanup.defer(() => db.destroy());
  await migrateToLatest(db);
  return db;
}

/** A reconnect timer the test fires itself: the listener stays down until the test says so. */
function manualTimer() {
  const fires: (() => void)[] = [];
  let scheduled: () => void = () => undefined;
  const next = () => new Promise<void>((resolve) => (scheduled = resolve));
  let waiting = next();
  return {
    schedule: (_ms: number, fire: () => void) => {
      fires.push(fire);
      scheduled();
      return () => fires.splice(fires.indexOf(fire), 1);
    },
    /** Resolves once a reconnect was scheduled (the listener noticed it was cut off). */
    scheduled: async () => {
      await waiting;
      waiting = next();
    },
    fireAll: () => fires.splice(0).forEach((fire) => fire()),
  };
}

const permissionRequest = (sessionId: string, taskId: string): PermissionRequestInfo => ({
  requestId: `r-${randomUUID()}`,
  sessionId,
  taskId,
  toolCallId: 'tc-1',
  title: 'Run npm install',
  toolKind: 'execute',
  options: [
    { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ],
});

describe('wake-ups across replicas (two backends, one PostgreSQL)', () => {
  const cleanup = useCleanup();

  /**
   * `listenerTimer`: A's listener reconnects when the test fires it. `unreachableAfterCommit`: A's
   * signals reach the database only inside a transaction (as if A died right after a COMMIT).
   */
  async function replicas(
    options: { listenerTimer?: ReturnType<typeof manualTimer>; unreachableAfterCommit?: boolean } = {},
  ) {
    const db = await freshDatabase(cleanup);
    const agentctl = new FakeAgentctl();
    const replica = async (extra: Partial<InProcessBackendOptions> = {}) => {
      const { backend } = await createInProcessBackend(cleanup, {
        db,
        agentctl: fakeAgentctlPort(agentctl),
        config: { apiToken: { token: TOKEN, source: 'the test' } },
        ...extra,
      });
      return backend;
    };
    const timer = options.listenerTimer;
    // A pool destroyed before its first connection: every statement on it fails.
    const afterCommit =
      options.unreachableAfterCommit === true ? createPostgresDatabase('postgres://gone@127.0.0.1/') : db;
    if (afterCommit !== db) await afterCommit.destroy();
    const signalsA =
      timer === undefined && afterCommit === db
        ? undefined
        : new PgReplicaSignals({
            replicaId: randomUUID(),
            db: afterCommit,
            connection: listenerConnectionOf(db),
            logger: createLogger('silent'),
            schedule: timer?.schedule,
          });
    const a = await replica(signalsA === undefined ? {} : { signals: signalsA });
    const b = await replica();
    // One workspace: root (normal, session sRoot asks the operator) -> child (autopilot, sChild asks root).
    const at = new Date().toISOString();
    await a.uow.read.workspaces.insert({ id: 'w', name: 'w', createdAt: at });
    for (const [id, parentId] of [
      ['root', null],
      ['child', 'root'],
    ] as const) {
      await a.uow.read.tasks.insert({
        ...{ id, workspaceId: 'w', parentId, title: `task ${id}`, state: 'todo' as const },
        ...{ autopilot: parentId !== null, agentProfileId: null, archivedAt: null, createdAt: at, updatedAt: at },
      });
    }
    for (const [id, taskId, capability] of [
      ['sRoot', 'root', 'user'],
      ['sChild', 'child', 'parent'],
    ] as const) {
      const config = launchConfigFor({ id, taskId, workspaceId: 'w' }, { questionCapability: capability });
      await a.uow.read.sessions.insert(sessionRow(config, { agentctlAddress: ENDPOINT.grpcAddress, at }));
      agentctl.held.set(id, config);
    }
    return { db, a, b, signalsA };
  }

  type Replica = Awaited<ReturnType<typeof replicas>>['a'];

  async function call(backend: Replica, sessionId: string, tool: string, args: unknown) {
    const handler = backend.toolHandlers[tool];
    const session = await backend.uow.read.sessions.findById(sessionId);
    if (handler === undefined || session === undefined) throw new Error(`no ${tool} or no ${sessionId}`);
    const context: ToolCallContext = {
      callId: `call-${randomUUID()}`,
      toolName: tool,
      sessionId,
      taskId: session.taskId,
      workspaceId: 'w',
      session,
      reportProgress: () => undefined,
      signal: new AbortController().signal,
    };
    return handler(context, args);
  }

  /** The one pending operator question of a session, once recorded (read until it is). */
  async function pendingQuestion(backend: Replica, sessionId: string): Promise<Question> {
    for (;;) {
      const { questions } = await backend.questions.list({ state: 'pending' });
      const found = questions.find((q) => q.sessionId === sessionId);
      if (found !== undefined) return found;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async function pendingParentQuestion(backend: Replica): Promise<string> {
    for (;;) {
      const rows = await backend.uow.read.parentQuestions.listForChild('child');
      const [first] = rows;
      if (first !== undefined) return first.id;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  test('an operator answer posted to B settles the ask_user_question held by A', async () => {
    const { a, b } = await replicas();
    const held = call(a, 'sRoot', ASK_USER, {
      questions: [{ prompt: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] }],
    });
    const question = await pendingQuestion(b, 'sRoot');
    const answered = await b.questions.answer(question.id, { answers: [{ question_index: 0, option: 'Postgres' }] });
    expect(answered.delivery).toEqual({ to: 'waiting_call' });
    const reply = await held;
    expect(JSON.stringify(reply)).toContain('Postgres');
    // Delivered to the held call, so nothing was queued as a late prompt.
    expect(await b.uow.read.promptQueue.countQueued()).toBe(0);
    expect(a.questions.waiting).toBe(0);
  });

  test("a permission decision posted to B reaches the agent's request held by A", async () => {
    const { a, b } = await replicas();
    const decided = a.permissions.decide(permissionRequest('sRoot', 'root'), new AbortController().signal);
    const question = await pendingQuestion(b, 'sRoot');
    // B holds no request in memory, and still takes the answer: A, alive, holds it.
    await b.questions.answer(question.id, { answers: [{ question_index: 0, option: 'Allow once' }] });
    await expect(decided).resolves.toBe('allow');
  });

  test("a parent's reply through B settles the child's permission request held by A", async () => {
    const { a, b } = await replicas();
    const decided = a.permissions.decide(permissionRequest('sChild', 'child'), new AbortController().signal);
    const questionId = await pendingParentQuestion(b);
    await call(b, 'sRoot', MESSAGE_TASK, { task_id: 'child', prompt: 'Allow once', reply_to_question_id: questionId });
    await expect(decided).resolves.toBe('allow');
  });

  test('an event stream on B sees the events A commits', async () => {
    const { a, b } = await replicas();
    const app = createApp(createLogger('silent'), b.routers, { auth: createAuthMiddleware(b.tokens) });
    const server = await listen(app, '127.0.0.1', 0);
    cleanup.defer(() => server.close());
    cleanup.defer(() => b.eventStreams.closeAll());
    const stream = await SseStream.open(`http://127.0.0.1:${server.port}/api/events`, cleanup, { token: TOKEN });
    expect(stream.status).toBe(200);
    const at = new Date().toISOString();
    await a.tasks.recordEventWithin(a.uow.read, 'task.updated', 'root', at);
    const event = await stream.next((e) => e.type === 'task.updated' && e.task_id === 'root', 'A’s task.updated on B');
    expect(event.task_id).toBe('root');
  });

  test("a unit of work's signal goes with its COMMIT: B hears it though A cannot reach the database after", async () => {
    const { a, b } = await replicas({ unreachableAfterCommit: true });
    const heard: { id: string; latestEvent: Promise<number> }[] = [];
    b.replicas.subscribe('question', {
      signal: (id) => heard.push({ id, latestEvent: b.uow.read.events.latestId() }),
      resync: () => undefined,
    });
    const answered = (id: string) => ({
      ...{ type: 'question.answered' as const, taskId: 'root', sessionId: null },
      ...{ data: { question: { id } }, at: new Date().toISOString() },
    });
    await expect(
      a.uow.transaction(async (stores) => {
        await stores.events.append(answered('rolled-back'));
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    await a.uow.transaction((stores) => stores.events.append(answered('committed')));
    const committedId = await a.uow.read.events.latestId();
    await waitUntil(() => heard.length > 0, { timeoutMs: 5_000, what: "B heard A's committed signal" });
    // A's signals reach B in A's order: the rolled back one, had it been sent, would have come first.
    expect(heard.map(({ id }) => id)).toEqual(['committed']);
    // Delivered at the COMMIT, never before it: B, woken, reads the event.
    await expect(heard[0]?.latestEvent).resolves.toBe(committedId);
  });

  test("A's listener connection killed: the answer committed meanwhile still wakes A (resync)", async () => {
    const timer = manualTimer();
    const { db, a, b, signalsA } = await replicas({ listenerTimer: timer });
    const decided = a.permissions.decide(permissionRequest('sRoot', 'root'), new AbortController().signal);
    const question = await pendingQuestion(b, 'sRoot');
    await db.raw('SELECT pg_terminate_backend(?)', [signalsA?.listenerPid ?? 0]);
    await timer.scheduled(); // A noticed; it listens again only when the test fires the reconnect
    // A is not listening: B's NOTIFY for this answer reaches nobody on A.
    await b.questions.answer(question.id, { answers: [{ question_index: 0, option: 'Allow once' }] });
    timer.fireAll();
    await expect(decided).resolves.toBe('allow');
    // The resync starts inside the reconnect, which counts itself a moment after: wait for the count.
    await waitUntil(() => signalsA?.connects === 2, { timeoutMs: 5_000, what: 'the reconnect counted' });
    expect(signalsA?.connects).toBe(2);
  });

  test('a replica gone from the database: its leases are taken over at once, not after their TTL', async () => {
    const { a, b } = await replicas();
    const names = ['attach:10.0.0.1:9000', 'drain:sRoot'];
    expect(await a.replicas.claim(names[0] ?? '', 60_000)).toBe(true);
    expect(await a.replicas.claimMany(names.slice(1), 60_000)).toEqual(new Set(names.slice(1)));
    // A is present: its leases hold.
    expect(await b.replicas.claim(names[0] ?? '', 60_000)).toBe(false);
    expect(await b.replicas.claimMany(names, 60_000)).toEqual(new Set());
    await a.replicas.close(); // what a process dying does: its connections end
    // The server drops an ended connection from pg_stat_activity on its own time: read until it has.
    while (await b.replicas.isAlive(a.replicas.replicaId)) await new Promise((resolve) => setImmediate(resolve));
    expect(await b.replicas.claim(names[0] ?? '', 60_000)).toBe(true);
    expect(await b.replicas.claimMany(names, 60_000)).toEqual(new Set(names));
  });
});
