// The durable prompt queue in process (real SQLite, fake agentctl): one turn at a time, in order, each
// prompt id delivered exactly once, also when Prompt fails ambiguously and is re-sent, when kicks race,
// when agentctl refuses, and behind a closed gate.
import { AppError } from '@kandev/protocol';
import { type DrainGate, recordTaskPrompt } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { createTurnHarness, finishWhenRunning, type TurnHarness } from '../../helpers/turn-harness';
import { waitUntil } from '../../helpers/wait';

/** Delivered prompt ids, and whether each was delivered exactly once. */
function deliveries(h: TurnHarness, sessionId: string): string[] {
  return h.agentctl.delivered.filter((d) => d.sessionId === sessionId).map((d) => d.promptId);
}

/** Runs the queue to its end: finishes each turn as it starts, in order. */
async function finishInOrder(h: TurnHarness, sessionId: string, promptIds: readonly string[]): Promise<void> {
  for (const promptId of promptIds) {
    await h.untilRunning(sessionId, promptId);
    // One turn at a time: nothing else is in flight while this one runs.
    const inFlight = (await h.queue(sessionId)).filter((p) => p.status === 'dispatched').map((p) => p.id);
    expect(inFlight).toEqual([promptId]);
    h.agentctl.finishTurn(sessionId);
  }
  await h.untilDrained(sessionId);
  await h.untilState(sessionId, 'waiting_for_input');
}

describe('prompt queue (in process)', () => {
  const cleanup = useCleanup();

  test('three prompts posted while a turn runs: delivered one at a time, in order, each exactly once', async () => {
    const h = await createTurnHarness(cleanup);
    const id = await h.readySession();
    const first = await h.prompt(id, 'first');
    await h.untilRunning(id, first);
    expect(await h.state(id)).toBe('running');
    const queued = [await h.prompt(id, 'second'), await h.prompt(id, 'third'), await h.prompt(id, 'fourth')];
    expect((await h.queue(id)).map((p) => p.status)).toEqual(['dispatched', 'queued', 'queued', 'queued']);

    await finishInOrder(h, id, [first, ...queued]);
    expect(deliveries(h, id)).toEqual([first, ...queued]);
    expect(h.agentctl.delivered.map((d) => d.text)).toEqual(['first', 'second', 'third', 'fourth']);
    // agentctl never had to refuse a prompt because another turn ran.
    expect(h.agentctl.promptCalls.filter((c) => c.outcome !== 'delivered')).toEqual([]);
    expect((await h.queue(id)).every((p) => p.status === 'completed' && p.finishedAt !== null)).toBe(true);
  });

  test.each([
    ['the reply was lost (agentctl delivered it)', true, 'unavailable'],
    ['the call never reached agentctl', false, 'deadline_exceeded'],
  ] as const)(
    'Prompt failing ambiguously once (%s) is re-sent with the same id: one delivery per id',
    async (_name, afterApplying, code) => {
      const h = await createTurnHarness(cleanup);
      const id = await h.readySession();
      h.agentctl.failNext('Prompt', new AppError(code, `agentctl Prompt: ${code}`), { afterApplying });
      const prompts = [await h.prompt(id, 'a'), await h.prompt(id, 'b'), await h.prompt(id, 'c')];
      const callsForFirst = () => h.agentctl.calls.filter((c) => c === `Prompt ${id} ${prompts[0]}`);
      // The failed call and its re-send, with the same id (the turn is still running meanwhile).
      await waitUntil(() => callsForFirst().length === 2, { timeoutMs: 5_000, what: 'the re-send' });
      await finishInOrder(h, id, prompts);

      expect(deliveries(h, id)).toEqual(prompts);
      expect(callsForFirst()).toHaveLength(2);
      const outcomes = h.agentctl.promptCalls.filter((c) => c.promptId === prompts[0]).map((c) => c.outcome);
      expect(outcomes).toEqual(afterApplying ? ['delivered', 'failed', 'duplicate'] : ['failed', 'delivered']);
    },
  );

  test('a duplicate reply whose turn already ended is applied like turn_ended', async () => {
    const h = await createTurnHarness(cleanup);
    const id = await h.readySession();
    // The turn runs and ends while the backend does not hear of it (its events are lost), then the
    // reply is lost too: the re-send learns the outcome from agentctl's duplicate answer.
    h.agentctl.detach();
    h.agentctl.onDelivered = (sessionId) => h.agentctl.finishTurn(sessionId, { stopReason: 'max_tokens' });
    h.agentctl.failNext('Prompt', new AppError('unavailable', 'agentctl Prompt: reset'), { afterApplying: true });
    const promptId = await h.prompt(id, 'quick');
    const [done] = await h.untilDrained(id);
    expect(done).toMatchObject({ id: promptId, status: 'completed', stopReason: 'max_tokens' });
    await h.untilState(id, 'waiting_for_input');
    expect(deliveries(h, id)).toEqual([promptId]);
    expect(h.agentctl.promptCalls.map((c) => c.outcome)).toEqual(['delivered', 'failed', 'duplicate']);
  });

  test('concurrent kicks (20 at once) dispatch one prompt', async () => {
    const h = await createTurnHarness(cleanup);
    h.agentctl.autoStart = false;
    const launched = await h.sessions.launch(await h.agentTask(), { surface: 'kanban_task', owns_task_title: false });
    const id = launched.session.id;
    await h.prompt(id, 'one');
    await h.prompt(id, 'two');
    // Ready without the event's kick: only the 20 kicks below can dispatch.
    await h.db('sessions').where({ id }).update({ state: 'waiting_for_input' });
    h.agentctl.agents.set(id, { ...(h.agentctl.agents.get(id) ?? never()), status: 'ready' });

    await Promise.all(Array.from({ length: 20 }, () => h.turns.drainer.kick(id)));
    expect((await h.queue(id)).map((p) => p.status)).toEqual(['dispatched', 'queued']);
    expect(h.agentctl.promptCalls).toHaveLength(1);
    expect(await h.state(id)).toBe('running');
  });

  test('agentctl refusing a prompt (nothing delivered) puts it back in its place; it is tried again', async () => {
    const h = await createTurnHarness(cleanup);
    const id = await h.readySession();
    h.agentctl.failNext('Prompt', new AppError('failed_precondition', 'agentctl Prompt: not now'));
    const first = await h.prompt(id, 'later');
    const second = await h.prompt(id, 'after it');
    // agentctl reports the agent ready, so no event of it will kick: the drainer kicks again itself
    // (after a backoff), and the refused prompt keeps its place ahead of the second.
    await finishInOrder(h, id, [first, second]);
    expect(deliveries(h, id)).toEqual([first, second]);
    expect(h.agentctl.promptCalls.map((c) => [c.promptId === first ? 'first' : 'second', c.outcome])).toEqual([
      ['first', 'failed'],
      ['first', 'delivered'],
      ['second', 'delivered'],
    ]);
  });

  test('agentctl no longer holding the session: the prompt waits again and the session fails (resume it)', async () => {
    const h = await createTurnHarness(cleanup);
    const id = await h.readySession();
    h.agentctl.held.delete(id);
    const promptId = await h.prompt(id, 'lost');
    await h.untilState(id, 'failed');
    expect(await h.uow.read.sessions.findById(id)).toMatchObject({
      lastError: 'agentctl no longer holds this session; resume it',
    });
    expect(await h.queue(id)).toMatchObject([{ id: promptId, status: 'queued' }]);
  });

  test('a closed gate holds the queue; once it opens, the next kick drains', async () => {
    let reason: string | null = 'waiting for the parent to answer';
    const gate: DrainGate = { heldBecause: () => Promise.resolve(reason) };
    const h = await createTurnHarness(cleanup, { gate });
    const id = await h.readySession();
    const promptId = await h.prompt(id, 'gated');
    await h.turns.drainer.kick(id);
    expect(await h.queue(id)).toMatchObject([{ status: 'queued' }]);
    expect(await h.state(id)).toBe('waiting_for_input');

    reason = null;
    await h.turns.drainer.kick(id);
    await finishWhenRunning(h, id, promptId);
    await h.untilDrained(id);
  });

  test('a prompt queued for the task with no live session is claimed by its next session', async () => {
    const h = await createTurnHarness(cleanup);
    h.agentctl.autoStart = false;
    const taskId = await h.agentTask();
    const { queued } = await h.uow.transaction((stores) =>
      recordTaskPrompt(stores, {
        taskId,
        author: 'operator',
        text: 'for whoever runs next',
        metadata: {},
        now: h.clock().toISOString(),
      }),
    );
    expect(queued.sessionId).toBeNull();
    const launched = await h.sessions.launch(taskId, { surface: 'kanban_task', owns_task_title: false });
    h.agentctl.startAgent(launched.session.id);
    await finishWhenRunning(h, launched.session.id, queued.id);
    await h.untilDrained(launched.session.id);
    expect(await h.uow.read.promptQueue.findById(queued.id)).toMatchObject({
      sessionId: launched.session.id,
      status: 'completed',
    });
  });
});

function never(): never {
  throw new Error('expected an agent');
}
