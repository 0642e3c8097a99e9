// agentctl runs a session's agent: the real daemon, the real scripted ACP test agent, and a hand-made
// backend on the Attach stream that answers the agent's tool calls and collects the session events.
import { status } from '@grpc/grpc-js';
import { type SessionEvent } from '@kandev/protocol';
import { agentctlClient, grpcFailureCode, unary } from '../../helpers/agentctl-grpc';
import { attachBackend, describeEvent } from '../../helpers/agent-backend';
import {
  AGENT_SESSION_ID,
  agentLaunchConfig,
  agentState,
  cancelTurn,
  createSession,
  prompt,
  testAgentCommand,
  writeAgentScript,
} from '../../helpers/agent-sessions';
import { useCleanup } from '../../helpers/cleanup';
import { startAgentctl, TEST_CONTROL_TOKEN } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';
import { sessionUuid } from '../../helpers/session-ids';

const MCP_ONLY = sessionUuid('mcp-only');

const SESSION = AGENT_SESSION_ID;

/** Prompts the scripted agent logged on its stderr (agentctl logs each agent stderr line at debug). */
const agentPromptsLogged = (logs: () => string): number => (logs().match(/\\"msg\\":\\"prompt\\"/g) ?? []).length;

const SCRIPT = {
  turns: [
    {
      match: { contains: 'finish' },
      steps: [
        { reply: 'Looking at the task. ' },
        { reply: 'Reading it now.' },
        { call_tool: { name: 'get_task_kandev', arguments: {} } },
        { reply: 'Done.' },
      ],
    },
    { match: { contains: 'wait' }, steps: [{ reply: 'Waiting.' }, { wait_for_cancel: true }] },
  ],
  default: { steps: [{ reply: 'Hello from the agent.' }] },
};

describe('agentctl agent runtime: turns', () => {
  const cleanup = useCleanup();

  async function start() {
    const daemon = await startAgentctl(cleanup);
    const client = agentctlClient(cleanup, daemon.ready.grpcPort);
    const script = writeAgentScript(cleanup, SCRIPT);
    return { daemon, client, logs: daemon.logs, script };
  }

  const turnEnded = (promptId: string) => (e: SessionEvent) => e.kind === 'turn_ended' && e.turn.promptId === promptId;

  test('CreateSession starts the agent; a prompt runs a whole turn; the same prompt id is never delivered again', async () => {
    const { client, logs, script } = await start();
    const backend = await attachBackend(cleanup, client, logs);
    const created = await createSession(client, agentLaunchConfig(testAgentCommand(script)));
    expect(created.agent?.status).toMatch(/AGENT_STATUS_(STARTING|READY)/);

    const started = await backend.waitFor((e) => e.kind === 'agent_started', 'agent_started');
    const ready = await agentState(client, SESSION);
    expect(ready).toMatchObject({ status: 'ready', loaded: false, exitReason: null });
    expect(started).toMatchObject({
      sessionId: SESSION,
      pid: ready.pid,
      acpSessionId: ready.acpSessionId,
      loaded: false,
    });

    const accepted = await prompt(client, SESSION, 'prompt-1', 'Please finish the task.');
    expect(accepted).toMatchObject({ duplicate: false, turn: { promptId: 'prompt-1', status: 'running' } });
    await backend.waitFor(turnEnded('prompt-1'), 'turn_ended of prompt-1');

    expect(backend.kindsOf(SESSION)).toEqual([
      'agent_started',
      'turn_started',
      'agent_message',
      'tool_call:get_task_kandev:in_progress',
      'tool_call:get_task_kandev:completed',
      'agent_message',
      'turn_ended:completed:end_turn',
    ]);
    expect(backend.textRuns(SESSION)).toEqual(['Looking at the task. Reading it now.', 'Done.']);
    const notice = backend.events.find((e) => e.kind === 'tool_call' && e.status === 'completed');
    expect(notice).toMatchObject({ promptId: 'prompt-1', outputText: 'get_task_kandev ok' });
    expect(JSON.parse(notice?.kind === 'tool_call' ? notice.inputJson : '{}')).toEqual({
      name: 'get_task_kandev',
      arguments: {},
    });
    // The agent's tool call reached the backend with the session's identity.
    expect(backend.toolCalls.map((c) => [c.tool_name, c.session_id, c.task_id])).toEqual([
      ['get_task_kandev', SESSION, 'task-1'],
    ]);
    const seqs = backend.events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

    const replay = await prompt(client, SESSION, 'prompt-1', 'Please finish the task.');
    expect(replay).toMatchObject({
      duplicate: true,
      turn: { promptId: 'prompt-1', status: 'completed', stopReason: 'end_turn' },
    });
    const after = await agentState(client, SESSION);
    expect(after.turns.map((t) => [t.promptId, t.status])).toEqual([['prompt-1', 'completed']]);
    expect(backend.toolCalls).toHaveLength(1);
    expect(backend.kindsOf(SESSION).filter((k) => k === 'turn_started')).toHaveLength(1);
    // The agent's own log (its stderr, in agentctl's debug log) shows a single prompt.
    expect(agentPromptsLogged(logs)).toBe(1);
  });

  test('one turn at a time; CancelTurn ends a waiting turn with stop reason cancelled', async () => {
    const { client, logs, script } = await start();
    const backend = await attachBackend(cleanup, client, logs);
    await createSession(client, agentLaunchConfig(testAgentCommand(script)));
    await prompt(client, SESSION, 'p-wait', 'please wait for me');
    // The scripted agent drops a cancel that arrives before it began the turn; wait until it has.
    await waitUntil(() => agentPromptsLogged(logs) === 1, {
      timeoutMs: 20_000,
      logs,
      what: 'the agent to take the prompt',
    });
    expect(await agentState(client, SESSION)).toMatchObject({ status: 'prompting', currentPromptId: 'p-wait' });

    const busy = prompt(client, SESSION, 'p-other', 'hello');
    expect(await grpcFailureCode(busy)).toBe(status.FAILED_PRECONDITION);

    expect(await cancelTurn(client, SESSION)).toEqual({ cancelled: true, prompt_id: 'p-wait' });
    const ended = await backend.waitFor(turnEnded('p-wait'), 'the cancelled turn to end');
    expect(describeEvent(ended)).toBe('turn_ended:completed:cancelled');
    // Text is flushed before the turn ends, even when no tool call came in between.
    expect(backend.kindsOf(SESSION)).toEqual([
      'agent_started',
      'turn_started',
      'agent_message',
      'turn_ended:completed:cancelled',
    ]);
    expect(await cancelTurn(client, SESSION)).toEqual({ cancelled: false, prompt_id: '' });

    // p-other was refused, not remembered: it can be sent now.
    expect(await prompt(client, SESSION, 'p-other', 'hello')).toMatchObject({ duplicate: false });
    await backend.waitFor(turnEnded('p-other'), 'the next turn to end');
  });

  test('bad Prompt requests change nothing: INVALID_ARGUMENT, NOT_FOUND, FAILED_PRECONDITION without an agent', async () => {
    const { client, logs, script } = await start();
    await createSession(client, agentLaunchConfig(testAgentCommand(script)));
    await createSession(client, agentLaunchConfig(null, { sessionId: MCP_ONLY }));
    await waitUntil(async () => (await agentState(client, SESSION)).status === 'ready', {
      timeoutMs: 20_000,
      logs,
      what: 'agent ready',
    });
    const call = (request: object) => unary(client, client.Prompt, request, TEST_CONTROL_TOKEN);
    const cases: [object, status][] = [
      [{ session_id: SESSION, prompt_id: '', text: 'x' }, status.INVALID_ARGUMENT],
      [{ session_id: SESSION, prompt_id: 'p1', text: '' }, status.INVALID_ARGUMENT],
      [{ session_id: '', prompt_id: 'p1', text: 'x' }, status.INVALID_ARGUMENT],
      [{ session_id: 'nope', prompt_id: 'p1', text: 'x' }, status.NOT_FOUND],
      [{ session_id: MCP_ONLY, prompt_id: 'p1', text: 'x' }, status.FAILED_PRECONDITION],
    ];
    for (const [request, code] of cases) expect(await grpcFailureCode(call(request))).toBe(code);
    expect(await grpcFailureCode(unary(client, client.CancelTurn, { session_id: '' }, TEST_CONTROL_TOKEN))).toBe(
      status.INVALID_ARGUMENT,
    );
    expect(await agentState(client, SESSION)).toMatchObject({ status: 'ready', turns: [] });
    expect(await agentState(client, MCP_ONLY)).toMatchObject({ status: 'none', pid: null });
  });

  test('events published while no backend is attached arrive, in order, after the next hello', async () => {
    const { client, logs, script } = await start();
    await createSession(client, agentLaunchConfig(testAgentCommand(script)));
    await waitUntil(async () => (await agentState(client, SESSION)).status === 'ready', {
      timeoutMs: 20_000,
      logs,
      what: 'agent ready',
    });
    await prompt(client, SESSION, 'p-detached', 'say hello');
    await waitUntil(async () => (await agentState(client, SESSION)).turns[0]?.status === 'completed', {
      timeoutMs: 20_000,
      logs,
      what: 'the detached turn to complete',
    });

    const backend = await attachBackend(cleanup, client, logs);
    await backend.waitFor(turnEnded('p-detached'), 'the queued turn_ended');
    expect(backend.kindsOf(SESSION)).toEqual([
      'agent_started',
      'turn_started',
      'agent_message',
      'turn_ended:completed:end_turn',
    ]);
    expect(backend.events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  });

  test('an unknown session: CancelTurn is NOT_FOUND', async () => {
    const { client } = await start();
    expect(await grpcFailureCode(cancelTurn(client, 'nope'))).toBe(status.NOT_FOUND);
  });
});
