// A backend restart in process: a second set of services over the same SQLite file and the same (fake)
// agentctl, which kept running and buffered its events. The boot reconcile settles what happened
// meanwhile: nothing queued is lost, nothing is delivered twice.
import { AppError } from '@kandev/protocol';
import { insertable, NEVER_STARTED_REASON } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';
import { createTurnHarness, FakeAgentctl, finishWhenRunning, type TurnHarness } from '../../helpers/turn-harness';

describe('backend restart (in process)', () => {
  const cleanup = useCleanup();

  /** Backend A on a fresh data dir, with an agentctl that outlives it. */
  async function first(options: { promptRetry?: { baseMs: number; maxDelayMs: number; maxAttempts: number } } = {}) {
    const agentctl = new FakeAgentctl();
    const dataDir = tempDir(cleanup);
    const a = await createTurnHarness(cleanup, { dataDir, agentctl, ...options });
    /** A dies (its services stop; agentctl buffers events) and B starts on the same data and agentctl. */
    const restart = async (): Promise<TurnHarness> => {
      agentctl.detach();
      await a.turns.stop();
      return createTurnHarness(cleanup, { dataDir, agentctl });
    };
    return { a, agentctl, restart };
  }

  const delivered = (agentctl: FakeAgentctl) => agentctl.delivered.map((d) => d.promptId);

  test('queued prompts and a turn that ended while the backend was down: each delivered once, in order', async () => {
    const { a, agentctl, restart } = await first();
    const id = await a.readySession();
    const prompts = [await a.prompt(id, 'one'), await a.prompt(id, 'two'), await a.prompt(id, 'three')];
    await a.untilRunning(id, prompts[0] ?? '');

    agentctl.detach();
    agentctl.finishTurn(id, { text: 'one is done' }); // buffered: nobody is attached
    const b = await restart();
    const summary = await b.turns.boot.run();
    expect(summary).toMatchObject({ checked: 1, failed: [], redelivered: [] });
    for (const promptId of prompts.slice(1)) await finishWhenRunning(b, id, promptId);
    const drained = await b.untilDrained(id);

    expect(drained.map((p) => p.status)).toEqual(['completed', 'completed', 'completed']);
    expect(delivered(agentctl)).toEqual(prompts);
    const replies = await b.db('messages').where({ session_id: id, author: 'agent', type: 'message' });
    expect(replies.map((m: { content: string }) => m.content)).toEqual(['one is done']);
  });

  test('the crash window: a prompt dispatched but never sent is sent once after the restart, with its id', async () => {
    const { a, agentctl, restart } = await first({ promptRetry: { baseMs: 1, maxDelayMs: 1, maxAttempts: 0 } });
    const id = await a.readySession();
    agentctl.failNext('Prompt', new AppError('unavailable', 'agentctl Prompt: connection reset'));
    const promptId = await a.prompt(id, 'in the window');
    const next = await a.prompt(id, 'after it');
    await a.untilState(id, 'running');
    expect(agentctl.delivered).toEqual([]); // A gave up re-sending: it stays dispatched
    expect((await a.queue(id)).map((p) => p.status)).toEqual(['dispatched', 'queued']);

    const b = await restart();
    expect(await b.turns.boot.run()).toMatchObject({ redelivered: [promptId] });
    await finishWhenRunning(b, id, promptId);
    await finishWhenRunning(b, id, next);
    await b.untilDrained(id);
    expect(delivered(agentctl)).toEqual([promptId, next]);
  });

  test('a turn still running at the restart is left to run: not sent again', async () => {
    const { a, agentctl, restart } = await first();
    const id = await a.readySession();
    const running = await a.prompt(id, 'long');
    const next = await a.prompt(id, 'next');
    await a.untilRunning(id, running);

    const b = await restart();
    expect(await b.turns.boot.run()).toMatchObject({ checked: 1, redelivered: [] });
    expect(await b.state(id)).toBe('running');
    agentctl.finishTurn(id);
    await finishWhenRunning(b, id, next);
    await b.untilDrained(id);
    expect(delivered(agentctl)).toEqual([running, next]);
    expect(agentctl.promptCalls.filter((c) => c.outcome !== 'delivered')).toEqual([]);
  });

  test('agentctl lost the session: it fails (resume it), its turn fails, the queue waits; resume drains it', async () => {
    const { a, agentctl, restart } = await first();
    const id = await a.readySession();
    const running = await a.prompt(id, 'lost with agentctl');
    const waiting = await a.prompt(id, 'kept');
    await a.untilRunning(id, running);
    agentctl.held.clear(); // agentctl restarted empty
    agentctl.agents.clear();

    const b = await restart();
    expect(await b.turns.boot.run()).toMatchObject({ failed: [id] });
    expect(await b.uow.read.sessions.findById(id)).toMatchObject({
      state: 'failed',
      lastError: 'agentctl no longer holds this session; resume it',
    });
    expect((await b.queue(id)).map((p) => [p.status, p.error])).toEqual([
      ['failed', 'agentctl no longer holds this session'],
      ['queued', null],
    ]);
    await b.sessions.resume(id);
    await finishWhenRunning(b, id, waiting);
    await b.untilDrained(id);
    expect(delivered(agentctl)).toEqual([running, waiting]);
  });

  test('an agent that exited while the backend was down (its events lost): the session fails with the reason', async () => {
    const { a, agentctl, restart } = await first();
    const id = await a.readySession();
    const running = await a.prompt(id, 'x');
    await a.untilRunning(id, running);
    agentctl.detach();
    agentctl.crashAgent(id, { reason: 'out of memory' });
    agentctl.attach(() => undefined); // the buffered events go nowhere

    const b = await restart();
    expect(await b.turns.boot.run()).toMatchObject({ failed: [id] });
    expect(await b.uow.read.sessions.findById(id)).toMatchObject({ state: 'failed', lastError: 'out of memory' });
    expect(await b.uow.read.promptQueue.findById(running)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('out of memory'),
    });
  });

  test('a launch cut short: never started -> failed; started in agentctl but not recorded -> ready and drains', async () => {
    const { a, agentctl, restart } = await first();
    const taskId = await a.agentTask();
    // The backend died right after CreateSession: agentctl runs the agent, the row still says starting.
    agentctl.detach();
    const launched = await a.sessions.launch(taskId, { surface: 'kanban_task', owns_task_title: false });
    const id = launched.session.id;
    await a.db('sessions').where({ id }).update({ applied_revision: 0 });
    agentctl.attach(() => undefined); // agent_started is lost
    const promptId = await a.prompt(id, 'waited for the agent');
    const neverTask = await a.agentTask();
    await a.db('sessions').insert({
      ...insertable(await a.db('sessions').where({ id }).first<Record<string, unknown>>()),
      id: 'never',
      task_id: neverTask,
      state: 'created',
      agentctl_address: null,
    });

    const b = await restart();
    const summary = await b.turns.boot.run();
    expect(summary.failed).toEqual(['never']);
    expect(await b.uow.read.sessions.findById('never')).toMatchObject({
      state: 'failed',
      lastError: NEVER_STARTED_REASON,
    });
    await finishWhenRunning(b, id, promptId);
    await b.untilDrained(id);
    expect(await b.uow.read.sessions.findById(id)).toMatchObject({
      state: 'waiting_for_input',
      appliedRevision: 1,
      acpSessionId: agentctl.agents.get(id)?.acpSessionId,
    });
  });

  test('the boot reconcile run twice changes nothing the second time', async () => {
    const { a, agentctl, restart } = await first();
    const busy = await a.readySession();
    const idle = await a.readySession();
    const lost = await a.readySession();
    const running = await a.prompt(busy, 'running');
    await a.prompt(busy, 'queued');
    await a.untilRunning(busy, running);
    agentctl.held.delete(lost);

    const b = await restart();
    await b.turns.boot.run();
    const snapshot = async () => ({
      sessions: await b.db('sessions').select().orderBy('id'),
      prompts: await b.db('prompt_queue').select().orderBy('seq'),
      messages: await b.db('messages').select().orderBy('seq'),
    });
    const before = await snapshot();
    const calls = agentctl.calls.filter((c) => !c.startsWith('GetSession')).length;
    expect(await b.turns.boot.run()).toMatchObject({ failed: [], redelivered: [] });
    expect(await snapshot()).toEqual(before);
    expect(agentctl.calls.filter((c) => !c.startsWith('GetSession'))).toHaveLength(calls);
    expect(await b.state(idle)).toBe('waiting_for_input');
    expect(await b.state(lost)).toBe('failed');
  });
});
