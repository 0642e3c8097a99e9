// An agent that dies, and resume, in process (real SQLite, fake agentctl): the session fails with the
// reason, its prompt in flight fails, the conversation says so; resume restarts the agent (continuing
// its ACP session) and the rest of the queue drains.
import { useCleanup } from '../../helpers/cleanup';
import { createTurnHarness, finishWhenRunning } from '../../helpers/turn-harness';
import { waitUntil } from '../../helpers/wait';
import { jsonColumn } from '@kandev/backend/testing';

describe('agent exits and resume (in process)', () => {
  const cleanup = useCleanup();

  test('killed mid-turn: session failed with the reason, the turn failed; resume runs the agent again and drains the rest', async () => {
    const h = await createTurnHarness(cleanup);
    const id = await h.readySession();
    const acp = (await h.uow.read.sessions.findById(id))?.acpSessionId;
    const first = await h.prompt(id, 'one');
    const rest = [await h.prompt(id, 'two'), await h.prompt(id, 'three')];
    await h.untilRunning(id, first);

    h.agentctl.crashAgent(id, { exitCode: 137, reason: 'killed by SIGKILL' });
    await h.untilState(id, 'failed');
    expect(await h.uow.read.sessions.findById(id)).toMatchObject({ lastError: 'killed by SIGKILL' });
    await waitUntil(async () => (await h.queue(id))[0]?.status === 'failed', { timeoutMs: 5_000 });
    expect((await h.queue(id)).map((p) => [p.status, p.error])).toEqual([
      ['failed', 'killed by SIGKILL'], // turn_ended(failed) came first, with the turn's error
      ['queued', null],
      ['queued', null],
    ]);
    const notice = await waitUntil(() => h.db('messages').where({ session_id: id, type: 'session_event' }).first(), {
      timeoutMs: 5_000,
      what: 'the session_event entry',
    });
    expect(notice).toMatchObject({ content: 'The agent exited: killed by SIGKILL' });
    expect(jsonColumn((notice as { metadata: unknown }).metadata)).toMatchObject({
      event: 'agent_exited',
      exit_code: 137,
      reason: 'killed by SIGKILL',
    });
    expect(h.agentctl.delivered.map((d) => d.promptId)).toEqual([first]); // nothing went to the dead agent

    const resumed = await h.sessions.resume(id);
    expect(resumed.config.revision).toBe(2);
    // agentctl restarts the agent and continues its ACP session (session/load).
    expect(h.agentctl.held.get(id)?.agent?.resumeAcpSessionId).toBe(acp);
    expect(h.agentctl.agents.get(id)).toMatchObject({ status: expect.any(String), loaded: true, acpSessionId: acp });
    for (const promptId of rest) await finishWhenRunning(h, id, promptId);
    await h.untilDrained(id);
    await h.untilState(id, 'waiting_for_input');
    expect(h.agentctl.delivered.map((d) => d.promptId)).toEqual([first, ...rest]);
    expect(await h.uow.read.sessions.findById(id)).toMatchObject({ lastError: null, revision: 2, appliedRevision: 2 });
  });

  test('the next prompt dispatched before agent_exited arrives is refused by agentctl: it waits again, the session fails', async () => {
    const h = await createTurnHarness(cleanup);
    const id = await h.readySession();
    const first = await h.prompt(id, 'one');
    const second = await h.prompt(id, 'two');
    await h.untilRunning(id, first);

    const exited = h.agentctl.crashAgent(id, { reason: 'segfault', holdExitEvent: true });
    // turn_ended(failed) alone: the session goes idle and the drainer tries the next prompt.
    await waitUntil(() => h.agentctl.promptCalls.some((c) => c.promptId === second), { timeoutMs: 5_000 });
    await h.untilState(id, 'failed');
    expect(await h.uow.read.sessions.findById(id)).toMatchObject({ lastError: 'segfault' });
    expect(await h.uow.read.promptQueue.findById(second)).toMatchObject({ status: 'queued', dispatchedAt: null });

    exited(); // the late agent_exited: recorded in the conversation, nothing else changes
    await waitUntil(() => h.db('messages').where({ session_id: id, type: 'session_event' }).first(), {
      timeoutMs: 5_000,
    });
    expect(await h.uow.read.promptQueue.findById(second)).toMatchObject({ status: 'queued' });
    expect(h.agentctl.delivered.map((d) => d.promptId)).toEqual([first]);
  });

  test('the agent exiting between turns with code 0 completes the session; a crash between turns fails it', async () => {
    const h = await createTurnHarness(cleanup);
    const clean = await h.readySession();
    h.agentctl.crashAgent(clean, { exitCode: 0, reason: 'exited with code 0' });
    await h.untilState(clean, 'completed');
    expect(await h.uow.read.sessions.findById(clean)).toMatchObject({ lastError: null });

    const crashed = await h.readySession();
    h.agentctl.crashAgent(crashed, { exitCode: 2, reason: 'exited with code 2' });
    await h.untilState(crashed, 'failed');
    expect(await h.uow.read.sessions.findById(crashed)).toMatchObject({ lastError: 'exited with code 2' });
  });

  test('a failed handshake (agent_exited while starting) fails the session; its queue waits for a resume', async () => {
    const h = await createTurnHarness(cleanup);
    h.agentctl.autoStart = false;
    const launched = await h.sessions.launch(await h.agentTask(), { surface: 'kanban_task', owns_task_title: false });
    const id = launched.session.id;
    const promptId = await h.prompt(id, 'queued before the agent was up');
    h.agentctl.crashAgent(id, { exitCode: 1, reason: 'handshake failed: bad ACP version' });
    await h.untilState(id, 'failed');
    expect(await h.queue(id)).toMatchObject([{ id: promptId, status: 'queued' }]);

    h.agentctl.autoStart = true;
    await h.sessions.resume(id);
    await finishWhenRunning(h, id, promptId);
    await h.untilDrained(id);
  });

  test('resume while a turn runs: that prompt fails "interrupted by resume", the queue is kept and drains', async () => {
    const h = await createTurnHarness(cleanup);
    const id = await h.readySession();
    const running = await h.prompt(id, 'interrupted');
    const next = await h.prompt(id, 'after the resume');
    await h.untilRunning(id, running);

    await h.sessions.resume(id);
    expect(await h.uow.read.promptQueue.findById(running)).toMatchObject({
      status: 'failed',
      error: 'interrupted by resume',
    });
    await finishWhenRunning(h, id, next);
    await h.untilDrained(id);
    // The old agent's late turn_ended(failed) and agent_exited(expected) changed nothing.
    expect(await h.uow.read.promptQueue.findById(running)).toMatchObject({ error: 'interrupted by resume' });
    expect(h.agentctl.delivered.map((d) => d.promptId)).toEqual([running, next]);
  });

  test('resume is refused for a session that is starting or never started', async () => {
    const h = await createTurnHarness(cleanup);
    h.agentctl.autoStart = false;
    const launched = await h.sessions.launch(await h.agentTask(), { surface: 'kanban_task', owns_task_title: false });
    await expect(h.sessions.resume(launched.session.id)).rejects.toMatchObject({ code: 'failed_precondition' });
    await h.db('sessions').where({ id: launched.session.id }).update({ state: 'created' });
    await expect(h.sessions.resume(launched.session.id)).rejects.toMatchObject({ code: 'failed_precondition' });
    await expect(h.sessions.resume('ghost')).rejects.toMatchObject({ code: 'not_found' });
  });
});
