// Two backend replicas over ONE database (PostgreSQL in the service-pg project; on SQLite shared leases
// are forced) and one agentctl (the fake, which keeps agentctl's per-id ledger): prompts queued on either
// replica, concurrently, are each delivered exactly once and in order, whichever replica's drain claims
// them; a prompt queued on the replica that does not get the session's events still drains once the turn
// before it ends. A dead replica's half-done turn (a prompt claimed and never sent, a turn_ended lost with
// its Attach stream) is finished by another replica's turn sweep; a replica's boot leaves alone a session
// another replica is starting.
import { randomUUID } from 'node:crypto';
import { createLogger, launchConfigFor, sessionRow, TurnSweeper } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { createTurnHarness, finishWhenRunning, type TurnHarness } from '../../helpers/turn-harness';
import { waitUntil } from '../../helpers/wait';

const cleanup = useCleanup();
const REPLICAS = { ttlMs: 60_000, renewMs: 5, shared: true };

async function twoReplicas() {
  const a = await createTurnHarness(cleanup, { replica: { replicas: REPLICAS } });
  const b = await createTurnHarness(cleanup, {
    agentctl: a.agentctl,
    replica: { db: a.db, replicas: REPLICAS },
  });
  a.attach(); // the session's events reach replica a (the Attach owner); b only queues and drains
  return { a, b };
}

describe('several replicas: the prompt queue', () => {
  it('delivers every prompt once, in order, with both replicas queueing and kicking at once', async () => {
    const { a, b } = await twoReplicas();
    const sessionId = await a.readySession();
    const ids: string[] = [];
    for (let round = 0; round < 5; round += 1) {
      // Two prompts at once, one through each replica; then every turn they start ends.
      const queued = await Promise.all([a.prompt(sessionId, `a${round}`), b.prompt(sessionId, `b${round}`)]);
      ids.push(...queued);
      // Their order in the queue is whichever committed first: end each turn as it runs.
      const left = new Set(queued);
      while (left.size > 0) {
        const running = await waitUntil(
          () => {
            const id = a.agentctl.agents.get(sessionId)?.currentPromptId;
            return id !== undefined && id !== null && left.has(id) ? id : undefined;
          },
          { timeoutMs: 5_000, what: 'a queued prompt to run' },
        );
        left.delete(running);
        a.agentctl.finishTurn(sessionId);
      }
    }
    const all = await a.untilDrained(sessionId);
    expect(all.map((p) => p.status)).toEqual(ids.map(() => 'completed'));
    const delivered = a.agentctl.delivered.filter((d) => d.sessionId === sessionId).map((d) => d.promptId);
    expect(delivered).toEqual(all.map((p) => p.id)); // once each, in queue order
    expect(new Set(delivered).size).toBe(ids.length);
    expect(a.agentctl.promptCalls.filter((c) => c.outcome === 'duplicate')).toEqual([]);
  });

  it('a prompt queued on the replica without the events drains after the turn before it', async () => {
    const { a, b } = await twoReplicas();
    const sessionId = await a.readySession();
    const first = await a.prompt(sessionId, 'first');
    await a.untilRunning(sessionId, first);
    const second = await b.prompt(sessionId, 'second'); // b's kick finds the session running
    a.agentctl.finishTurn(sessionId);
    await finishWhenRunning(a, sessionId, second); // a's turn_ended kick claims it
    const all = await a.untilDrained(sessionId);
    expect(all.map((p) => [p.id, p.status])).toEqual([
      [first, 'completed'],
      [second, 'completed'],
    ]);
  });

  /** Replica h's turn sweep, with every waiting prompt counted as stale (the harness clock barely moves). */
  function sweeperOf(h: TurnHarness): TurnSweeper {
    const { uow, agentctls, replicas } = h.backend;
    const clock = () => new Date(); // later than any harness clock: each has its own
    expect(replicas.shared).toBe(true); // the harness replicas share leases: their sweeps run
    expect(h.turns.sweeper).toBeInstanceOf(TurnSweeper);
    return new TurnSweeper({
      ...{ uow, clock, agentctls, reconciler: h.turns.boot, replicas },
      ...{ staleMs: 0, logger: createLogger('silent') },
    });
  }

  it("a prompt a dead replica claimed and never sent is sent once by another replica's sweep", async () => {
    const { a, b } = await twoReplicas();
    const sessionId = await a.readySession();
    // What replica a leaves when it dies between its claim and its Prompt call: the prompt dispatched,
    // the session running, agentctl never asked. Written in one transaction, so no drain of either
    // replica can claim the prompt first.
    const promptId = randomUUID();
    const now = a.clock().toISOString();
    await a.uow.transaction(async (stores) => {
      const session = await stores.sessions.findById(sessionId);
      await stores.promptQueue.enqueue({
        ...{ id: promptId, taskId: session!.taskId, sessionId, prompt: 'claimed, never sent', source: 'operator' },
        ...{ priority: 'normal', status: 'queued', createdAt: now, dispatchedAt: null, finishedAt: null },
        ...{ stopReason: null, error: null, coalescingKey: null },
      });
      expect(await stores.promptQueue.claim(promptId, sessionId, now)).toBe(true);
      expect(await stores.sessions.advance(session!, { kind: 'turn_started' }, now)).toBe('running');
    });
    expect(await sweeperOf(b).sweep()).toEqual([sessionId]);
    await a.untilRunning(sessionId, promptId);
    a.agentctl.finishTurn(sessionId);
    const all = await a.untilDrained(sessionId);
    expect(all.map((p) => [p.id, p.status])).toEqual([[promptId, 'completed']]);
    expect(a.agentctl.delivered.filter((d) => d.promptId === promptId)).toHaveLength(1);
  });

  it("a turn_ended lost with a dead replica's Attach stream: the sweep settles it and drains the next", async () => {
    const { a, b } = await twoReplicas();
    const sessionId = await a.readySession();
    const first = await a.prompt(sessionId, 'first');
    await a.untilRunning(sessionId, first);
    a.agentctl.attach(() => undefined); // the stream of a replica that is dying: what it gets is lost
    a.agentctl.finishTurn(sessionId);
    const second = await b.prompt(sessionId, 'second'); // b's kick finds the session still running
    expect(a.agentctl.agents.get(sessionId)?.currentPromptId).toBeNull();
    expect(await b.state(sessionId)).toBe('running');
    b.attach(); // b took the stream over
    expect(await sweeperOf(b).sweep()).toEqual([sessionId]);
    await finishWhenRunning(a, sessionId, second);
    const all = await a.untilDrained(sessionId);
    expect(all.map((p) => [p.id, p.status])).toEqual([
      [first, 'completed'],
      [second, 'completed'],
    ]);
    expect(a.agentctl.promptCalls.filter((c) => c.outcome === 'duplicate')).toEqual([]);
  });

  it("a launch frees its lease once started: another replica's resume claims it", async () => {
    const { a, b } = await twoReplicas();
    const sessionId = await a.readySession(); // the launch answered; its lease release is queued on its lane
    // The release runs on the session's lane after the start (the agent's ready event may pass it).
    await waitUntil(
      async () =>
        (await a
          .db('leases')
          .where({ name: `launch:${sessionId}` })
          .first()) === undefined,
      {
        timeoutMs: 5_000,
        what: 'the launch lease to be freed',
      },
    );
    const resumed = await b.sessions.resume(sessionId); // fails with failed_precondition while a holds the lease
    expect(resumed.session.id).toBe(sessionId);
    await b.untilState(sessionId, 'waiting_for_input');
  });

  it('a booting replica leaves alone a session another replica is starting, and fails one nobody starts', async () => {
    const { a, b } = await twoReplicas();
    // CreateSession held on agentctl: replica a is mid-launch.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    cleanup.defer(() => release()); // a failing test must not leave the launch (and the stop) hanging
    const createSession = a.agentctl.createSession.bind(a.agentctl);
    a.agentctl.createSession = async (config) => {
      await held;
      return createSession(config);
    };
    const taskId = await a.agentTask();
    const launching = a.sessions.launch(taskId, { surface: 'kanban_task', owns_task_title: false });
    const inFlight = await waitUntil(async () => (await a.uow.read.sessions.listByStates(['starting']))[0]?.id, {
      timeoutMs: 5_000,
      what: 'the launch to reach agentctl',
    });
    // What a replica that died mid-launch leaves: a created row nobody is starting.
    const abandoned = await createdRowOnly(b, await a.agentTask());
    const summary = await b.turns.boot.run();
    expect(summary.failed).toEqual([abandoned]);
    expect(await a.state(inFlight)).toBe('starting');
    release();
    const launched = await launching;
    expect(launched.session.id).toBe(inFlight);
    await a.untilState(inFlight, 'waiting_for_input');
  });
});

/** A created session row for the task, as a launch's transaction writes it, and no start after it. */
async function createdRowOnly(h: TurnHarness, taskId: string): Promise<string> {
  const id = randomUUID();
  const task = await h.uow.read.tasks.findById(taskId);
  const config = launchConfigFor({ id, taskId, workspaceId: task!.workspaceId });
  const at = h.clock().toISOString();
  await h.uow.read.sessions.insert(sessionRow(config, { state: 'created', agentctlAddress: null, at }));
  return id;
}
