// Two backend replicas over ONE database (PostgreSQL in the service-pg project; on SQLite shared leases
// are forced) and one agentctl (the fake): what a replica that died leaves is cleaned up by the running
// ones. Its expired leases are deleted (a batch at a time, nothing another replica holds); the sessions it
// left created or starting are repaired by the start sweep as boot would (never one a live replica is
// starting); a launch holds its lease only while it starts, whether it succeeds or fails; and a late
// answer to a question whose call died with its replica goes to the session's agent when it has one, and
// is otherwise recorded undeliverable, nothing queued.
import { randomUUID } from 'node:crypto';
import {
  createLogger,
  launchConfigFor,
  NEVER_STARTED_REASON,
  type Question,
  sessionRow,
  StartSweeper,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { createTurnHarness, ENDPOINT, type TurnHarness } from '../../helpers/turn-harness';
import { waitUntil } from '../../helpers/wait';

const cleanup = useCleanup();
const REPLICAS = { ttlMs: 60_000, renewMs: 5, shared: true };
const GONE = 'gone-replica';
const ANSWER = { answers: [{ question_index: 0, option: 'Postgres' }] };

async function twoReplicas() {
  const a = await createTurnHarness(cleanup, { replica: { replicas: REPLICAS } });
  const b = await createTurnHarness(cleanup, { agentctl: a.agentctl, replica: { db: a.db, replicas: REPLICAS } });
  a.attach(); // the session's events reach replica a (the Attach owner)
  return { a, b };
}

/** Leases as a replica that died left them: owned by GONE (no presence), expired unless `expiresAtMs`. */
async function goneLeases(h: TurnHarness, names: readonly string[], expiresAtMs = 0): Promise<void> {
  const rows = names.map((name) => ({ name, owner: GONE, expires_at_ms: expiresAtMs, acquired_at_ms: 0 }));
  for (let i = 0; i < rows.length; i += 100) await h.db('leases').insert(rows.slice(i, i + 100));
}

async function leaseNames(h: TurnHarness): Promise<string[]> {
  const rows: { name: string }[] = await h.db('leases').orderBy('name').select('name');
  return rows.map((row) => row.name);
}

/** A session row as a launch's transaction writes it (`created`), or later (`starting`), and no start after. */
async function unstartedRow(h: TurnHarness, taskId: string, state: 'created' | 'starting'): Promise<string> {
  const task = await h.uow.read.tasks.findById(taskId);
  const config = launchConfigFor({ id: randomUUID(), taskId, workspaceId: task!.workspaceId });
  const at = h.clock().toISOString();
  const agentctlAddress = state === 'created' ? null : ENDPOINT.grpcAddress;
  await h.uow.read.sessions.insert(sessionRow(config, { state, at, agentctlAddress }));
  return config.sessionId;
}

/** Replica h's start sweep, with every unstarted session counted as stale (the harness clock barely moves). */
function startSweeperOf(h: TurnHarness): StartSweeper {
  const { uow, agentctls, replicas } = h.backend;
  expect(h.turns.startSweeper).toBeInstanceOf(StartSweeper);
  return new StartSweeper({
    ...{ uow, clock: () => new Date(), agentctls, reconciler: h.turns.boot, replicas },
    ...{ staleMs: 0, logger: createLogger('silent') },
  });
}

/** Holds agentctl's CreateSession until the returned release (a launch in flight on that replica). */
function holdCreateSession(h: TurnHarness): () => void {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  cleanup.defer(() => release()); // a failing test must not leave the launch (and the stop) hanging
  const createSession = h.agentctl.createSession.bind(h.agentctl);
  h.agentctl.createSession = async (config) => {
    await held;
    return createSession(config);
  };
  return release;
}

describe('several replicas: what a dead replica left is cleaned up', () => {
  it("deletes a gone replica's expired leases a batch at a time, and nothing still held", async () => {
    const { a, b } = await twoReplicas();
    const expired = Array.from({ length: 250 }, (_, i) => `launch:gone-${String(i).padStart(3, '0')}`);
    await goneLeases(a, expired);
    await goneLeases(a, ['attach:not-expired'], Date.parse('2100-01-01T00:00:00Z'));
    expect(await a.backend.replicas.claim('drain:mine', REPLICAS.ttlMs)).toBe(true);
    expect(await b.backend.replicas.deleteExpired()).toBe(250); // more than one batch
    expect(await leaseNames(a)).toEqual(['attach:not-expired', 'drain:mine']);
    expect(await b.backend.replicas.deleteExpired()).toBe(0);
  });

  it('a launch holds its lease while it starts and frees it once started, or once it failed', async () => {
    const { a } = await twoReplicas();
    const release = holdCreateSession(a);
    const launching = a.sessions.launch(await a.agentTask(), { surface: 'kanban_task', owns_task_title: false });
    const inFlight = await waitUntil(async () => (await a.uow.read.sessions.listByStates(['starting']))[0]?.id, {
      timeoutMs: 5_000,
      what: 'the launch to reach agentctl',
    });
    expect(await leaseNames(a)).toEqual([`launch:${inFlight}`]);
    release();
    await launching;
    await waitUntil(async () => (await leaseNames(a)).length === 0, {
      timeoutMs: 5_000,
      what: 'the launch lease freed',
    });
    a.agentctl.createSession = () => Promise.reject(new Error('agentctl refused the session'));
    await expect(
      a.sessions.launch(await a.agentTask(), { surface: 'kanban_task', owns_task_title: false }),
    ).rejects.toThrow();
    await waitUntil(async () => (await leaseNames(a)).length === 0, {
      timeoutMs: 5_000,
      what: 'the failed launch freeing its lease',
    });
  });

  it('the start sweep repairs the sessions a gone replica left unstarted, never one being started', async () => {
    const { a, b } = await twoReplicas();
    const release = holdCreateSession(a);
    const launching = a.sessions.launch(await a.agentTask(), { surface: 'kanban_task', owns_task_title: false });
    const inFlight = await waitUntil(async () => (await a.uow.read.sessions.listByStates(['starting']))[0]?.id, {
      timeoutMs: 5_000,
      what: 'the launch to reach agentctl',
    });
    // What a replica that died mid-launch leaves: a created row, and a starting one agentctl never got;
    // its launch leases expired.
    const created = await unstartedRow(b, await a.agentTask(), 'created');
    const starting = await unstartedRow(b, await a.agentTask(), 'starting');
    await goneLeases(b, [`launch:${created}`, `launch:${starting}`]);
    const failed = await startSweeperOf(b).sweep();
    expect(failed.sort()).toEqual([created, starting].sort());
    const createdRow = await b.uow.read.sessions.findById(created);
    expect(createdRow).toMatchObject({ state: 'failed', lastError: NEVER_STARTED_REASON });
    expect(await b.state(starting)).toBe('failed');
    expect(await a.state(inFlight)).toBe('starting'); // a holds its launch lease: left alone
    expect(await leaseNames(b)).toEqual([`launch:${inFlight}`]); // the swept ones were freed
    release();
    await launching;
    await a.untilState(inFlight, 'waiting_for_input');
    expect(await startSweeperOf(b).sweep()).toEqual([]); // nothing left to repair
  });
});

describe('several replicas: a late answer after its holder died', () => {
  /** Asks on replica h for the session; resolves once the question is recorded (the call stays held). */
  async function askOn(h: TurnHarness, sessionId: string): Promise<Question> {
    const session = await h.uow.read.sessions.findById(sessionId);
    const abort = new AbortController();
    cleanup.defer(() => abort.abort());
    return new Promise<Question>((resolve, reject) => {
      h.questions
        .ask({
          ...{ taskId: session!.taskId, sessionId, callId: `call-${randomUUID()}`, signal: abort.signal },
          args: { questions: [{ prompt: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] }] },
          onRecorded: resolve,
        })
        .catch(reject);
    });
  }

  /** Replica a dies holding the call: its presence ends (PostgreSQL); on one SQLite file b never sees a alive. */
  async function holderDies(a: TurnHarness): Promise<void> {
    await a.backend.replicas.close();
  }

  it('an MCP-only session: recorded undeliverable, nothing queued', async () => {
    const { a, b } = await twoReplicas();
    const launched = await a.sessions.launch(await a.agentTask({ agent: false }), {
      surface: 'kanban_task',
      owns_task_title: false,
    });
    const sessionId = launched.session.id;
    await a.untilState(sessionId, 'waiting_for_input');
    const question = await askOn(a, sessionId);
    await holderDies(a);
    const answered = await b.questions.answer(question.id, ANSWER);
    expect(answered.delivery).toEqual({
      to: 'undeliverable',
      reason: expect.stringContaining('has no agent') as unknown,
    });
    // The answer's transaction committed: a prompt it queued would be there now.
    expect(await b.uow.read.promptQueue.countQueued()).toBe(0);
    expect(await b.queue(sessionId)).toEqual([]);
    expect((await b.uow.read.questions.findById(question.id))?.answerDelivery).toBe('undeliverable');
    const events = await b.uow.read.events.after(0, { taskId: launched.session.taskId }, 100);
    const answeredEvent = events.find((event) => event.type === 'question.answered');
    expect(answeredEvent?.data).toMatchObject({ question: { state: 'answered', answer_delivery: 'undeliverable' } });
  });

  it("an agent session: queued for that session's agent and delivered", async () => {
    const { a, b } = await twoReplicas();
    const sessionId = await a.readySession();
    const question = await askOn(a, sessionId);
    await holderDies(a);
    const answered = await b.questions.answer(question.id, ANSWER);
    expect(answered.delivery).toEqual({ to: 'queued_prompt', queuedPromptId: expect.any(String) as unknown });
    if (answered.delivery.to !== 'queued_prompt') return;
    const promptId = answered.delivery.queuedPromptId;
    expect((await b.queue(sessionId)).map((p) => p.id)).toEqual([promptId]);
    await b.untilRunning(sessionId, promptId);
    expect((await b.uow.read.questions.findById(question.id))?.answerDelivery).toBe('queued_prompt');
  });
});
