// The agent runtime end to end, black box: a real backend (which starts its own agentctl) runs the
// scripted test agent (a real ACP agent over stdio) as the task's agent profile. Everything is driven
// over REST; the only other thing a test looks at is the agent's pid.
import {
  agentPid,
  type ConversationEntry,
  type QueuedPromptView,
  launchAgentSession,
  waitForPidGone,
} from '../../helpers/agent-runtime';
import { useCleanup } from '../../helpers/cleanup';
import { isPidAlive } from '../../helpers/processes';

const SCRIPT = 'runtime';

/** Every prompt ran alone: it was dispatched only after the one before it finished. */
function expectOneAtATime(prompts: QueuedPromptView[]): void {
  for (let i = 1; i < prompts.length; i += 1) {
    const previous = prompts[i - 1]!;
    const current = prompts[i]!;
    expect(previous.finished_at).not.toBeNull();
    expect(current.dispatched_at).not.toBeNull();
    expect(Date.parse(current.dispatched_at!)).toBeGreaterThanOrEqual(Date.parse(previous.finished_at!));
  }
}

describe('agent runtime: a session with the test agent', () => {
  const cleanup = useCleanup();

  test('a prompt runs one turn: get_task and step_complete through MCP, the conversation shows it, then WAITING_FOR_INPUT', async () => {
    const { runtime, taskId, session, ready } = await launchAgentSession(cleanup, SCRIPT);
    expect(ready.agent).toMatchObject({ status: 'ready', acp_session_id: expect.any(String) });
    expect(isPidAlive(agentPid(ready))).toBe(true);

    const posted = await runtime.postPrompt(session.session_id, 'Please finish the task.');
    expect(posted).toMatchObject({
      queued_prompt_id: expect.any(String),
      message_id: expect.any(String),
      session_id: session.session_id,
    });
    const [prompt] = await runtime.waitForDrained(session.session_id, 1);
    expect(prompt).toMatchObject({
      id: posted.queued_prompt_id,
      prompt: 'Please finish the task.',
      status: 'completed',
      stop_reason: 'end_turn',
      error: null,
    });
    const after = await runtime.waitForState(session.session_id, 'waiting_for_input');
    expect(after.agent).toMatchObject({ status: 'ready', current_prompt_id: null });

    const messages = await runtime.messages(taskId);
    const operator = messages.find((m) => m.id === posted.message_id);
    expect(operator).toMatchObject({ type: 'message', author: 'operator', content: 'Please finish the task.' });

    // The turn, in order: the first reply, the two tool calls (completed), the closing reply.
    const toolCalls = messages.filter((m) => m.type === 'tool_call');
    expect(toolCalls.map((m) => [m.content, m.metadata.status, m.metadata.prompt_id])).toEqual([
      ['get_task_kandev', 'completed', posted.queued_prompt_id],
      ['step_complete_kandev', 'completed', posted.queued_prompt_id],
    ]);
    expect(toolCalls.every((m) => typeof m.metadata.tool_call_id === 'string')).toBe(true);
    const replies = messages.filter((m) => m.type === 'message' && m.author !== 'operator');
    expect(replies.map((m) => [m.author, m.content])).toEqual([
      ['agent', 'Reading the task.'],
      ['agent', 'Done: the step is complete.'],
    ]);
    const position = (entry: ConversationEntry | undefined) => messages.indexOf(entry!);
    expect(position(operator)).toBeLessThan(position(replies[0]));
    expect(position(replies[0])).toBeLessThan(position(toolCalls[0]));
    expect(position(toolCalls[0])).toBeLessThan(position(toolCalls[1]));
    expect(position(toolCalls[1])).toBeLessThan(position(replies[1]));

    // step_complete_kandev really reached the backend: the step completion is recorded on the task.
    const completions = messages.filter((m) => m.type === 'step_complete');
    expect(completions).toHaveLength(1);
    expect(completions[0]!.content).toContain('Read the task; step done.');
  });

  test('what the agent discovers with tools/list is exactly the tool set agentctl reports for the session', async () => {
    const { runtime, taskId, session } = await launchAgentSession(cleanup, SCRIPT);
    await runtime.postPrompt(session.session_id, 'Please list tools.');
    await runtime.waitForDrained(session.session_id, 1);
    const { tools } = await runtime.session(session.session_id);
    expect(tools).toContain('get_task_kandev');
    const sorted = [...tools!].sort();
    expect(await runtime.agentReplies(taskId)).toEqual([`Tools I can see (${sorted.length}): ${sorted.join(', ')}`]);
  });

  test('an agent started without MCP (supports_mcp false) fails a list_tools turn and says why', async () => {
    const { runtime, session } = await launchAgentSession(cleanup, SCRIPT, { supportsMcp: false });
    const posted = await runtime.postPrompt(session.session_id, 'Please list tools.');
    const [prompt] = await runtime.waitForDrained(session.session_id, 1);
    expect(prompt).toMatchObject({ id: posted.queued_prompt_id, status: 'failed' });
    expect(prompt!.error).toContain('list_tools failed: no HTTP MCP server was given in session/new');
    // The agent is still there and takes the next prompt.
    const next = await runtime.postPrompt(session.session_id, 'still there?');
    const prompts = await runtime.waitForDrained(session.session_id, 2);
    expect(prompts.find((p) => p.id === next.queued_prompt_id)).toMatchObject({ status: 'completed' });
  });

  test('three prompts posted while a turn runs are delivered one at a time, in order, each exactly once', async () => {
    const { runtime, taskId, session } = await launchAgentSession(cleanup, SCRIPT);
    const sessionId = session.session_id;
    const blocking = await runtime.postPrompt(sessionId, 'block for now');
    const running = await runtime.waitForTurn(sessionId, blocking.queued_prompt_id);
    expect(running.state).toBe('running');

    const posted = [];
    for (const text of ['first', 'second', 'third']) posted.push(await runtime.postPrompt(sessionId, text));
    const waiting = await runtime.prompts(sessionId);
    expect(waiting.map((p) => [p.prompt, p.status])).toEqual([
      ['block for now', 'dispatched'],
      ['first', 'queued'],
      ['second', 'queued'],
      ['third', 'queued'],
    ]);
    // Still on the blocking turn: nothing queued reached the agent while it was busy.
    expect((await runtime.session(sessionId)).agent?.current_prompt_id).toBe(blocking.queued_prompt_id);

    expect(await runtime.cancel(sessionId)).toEqual({ cancelled: true, prompt_id: blocking.queued_prompt_id });
    const prompts = await runtime.waitForDrained(sessionId, 4);
    expect(prompts.map((p) => [p.id, p.status, p.stop_reason])).toEqual([
      [blocking.queued_prompt_id, 'completed', 'cancelled'],
      ...posted.map((p) => [p.queued_prompt_id, 'completed', 'end_turn']),
    ]);
    expectOneAtATime(prompts);

    // The agent numbers the prompts it receives: consecutive ordinals, each reply once, in posting order.
    expect(await runtime.agentReplies(taskId)).toEqual([
      '#0 blocking until cancelled: block for now',
      '#1 got: first',
      '#2 got: second',
      '#3 got: third',
    ]);
    const operatorPrompts = (await runtime.messages(taskId)).filter((m) => m.author === 'operator');
    expect(operatorPrompts.map((m) => m.content)).toEqual(['block for now', 'first', 'second', 'third']);
    await runtime.waitForState(sessionId, 'waiting_for_input');
  });

  test('blank prompts are refused with 400 and stored nowhere; the next prompt runs', async () => {
    const { runtime, taskId, session } = await launchAgentSession(cleanup, SCRIPT);
    const sessionId = session.session_id;
    for (const blank of ['   ', '\t\n', '\u00a0']) {
      const refused = await runtime.api.request('POST', `/api/sessions/${sessionId}/prompts`, { prompt: blank });
      expect({ blank, status: refused.status }).toEqual({ blank, status: 400 });
    }
    const posted = await runtime.postPrompt(sessionId, 'after the blanks');
    const prompts = await runtime.waitForDrained(sessionId, 1);
    expect(prompts.map((p) => [p.id, p.status])).toEqual([[posted.queued_prompt_id, 'completed']]);
    expect(await runtime.agentReplies(taskId)).toEqual(['#0 got: after the blanks']);
    const operatorPrompts = (await runtime.messages(taskId)).filter((m) => m.author === 'operator');
    expect(operatorPrompts.map((m) => m.content)).toEqual(['after the blanks']);
  });

  test('a cancel with no turn running cancels nothing', async () => {
    const { runtime, session } = await launchAgentSession(cleanup, SCRIPT);
    expect(await runtime.cancel(session.session_id)).toMatchObject({ cancelled: false });
    expect((await runtime.session(session.session_id)).state).toBe('waiting_for_input');
  });

  test('stopping a session mid-turn leaves no agent process behind and delivers nothing more', async () => {
    const { runtime, session } = await launchAgentSession(cleanup, SCRIPT);
    const sessionId = session.session_id;
    const blocking = await runtime.postPrompt(sessionId, 'block until stopped');
    const pid = agentPid(await runtime.waitForTurn(sessionId, blocking.queued_prompt_id));
    const queued = await runtime.postPrompt(sessionId, 'never delivered');

    const stopped = await runtime.stop(sessionId);
    expect(stopped.state).toBe('cancelled');
    await waitForPidGone(pid, `agent ${pid} to exit after stop`);
    const view = await runtime.session(sessionId);
    expect(view.state).toBe('cancelled');
    expect(view.agent === null || view.agent.status === 'exited' || view.agent.status === 'none').toBe(true);
    // The turn in flight failed; the queued prompt was never delivered (a resume would drain it).
    expect((await runtime.prompts(sessionId)).map((p) => [p.id, p.status])).toEqual([
      [blocking.queued_prompt_id, 'failed'],
      [queued.queued_prompt_id, 'queued'],
    ]);
    // A stopped session takes no more prompts.
    const refused = await runtime.api.request('POST', `/api/sessions/${sessionId}/prompts`, { prompt: 'too late' });
    expect(refused.status).toBe(409);
  });

  test('stopping an idle session leaves no agent process behind', async () => {
    const { runtime, session, ready } = await launchAgentSession(cleanup, SCRIPT);
    const pid = agentPid(ready);
    expect((await runtime.stop(session.session_id)).state).toBe('cancelled');
    await waitForPidGone(pid, `agent ${pid} to exit after stop`);
  });
});
