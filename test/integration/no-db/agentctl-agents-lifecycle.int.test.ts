// The life of a session's agent process in a real agentctl: crash, stop (the whole process group, no
// orphans), resume with session/load, start failures, agentctl shutdown, and the agent's environment.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import type { AgentCommand } from '@kandev/protocol';
import { agentctlClient, grpcFailureCode } from '../../helpers/agentctl-grpc';
import { attachBackend } from '../../helpers/agent-backend';
import { isLiveProcess, liveGroupMembers } from '../../helpers/agent-process-group';
import {
  AGENT_SESSION_ID,
  agentLaunchConfig,
  agentState,
  createSession,
  prompt,
  stopSession,
  TEST_AGENT_MAIN,
  testAgentCommand,
  writeAgentScript,
} from '../../helpers/agent-sessions';
import { useCleanup } from '../../helpers/cleanup';
import { killPid, startAgentctl, stopProcess, tempDir } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';
import { sessionUuid } from '../../helpers/session-ids';

const SESSION = AGENT_SESSION_ID;
const RESUME_TOKEN = 'mcp-token-agent-runtime-resumed-0123456789abcdef';
const SCRIPT = {
  turns: [
    {
      match: { contains: 'finish' },
      steps: [{ call_tool: { name: 'get_task_kandev', arguments: {} } }, { reply: 'Done.' }],
    },
    { match: { contains: 'wait' }, steps: [{ wait_for_cancel: true }] },
  ],
  default: { steps: [{ reply: 'Hello.' }] },
};

const agentPromptsLogged = (logs: () => string): number => (logs().match(/\\"msg\\":\\"prompt\\"/g) ?? []).length;

/**
 * The test agent behind `sh`, backgrounded, next to a long `sleep` (like a tool process an agent leaves
 * running): both are in the group `sh` leads, and the sleep does not care that stdin closes.
 */
function shellWrappedAgent(script: string): AgentCommand {
  // A non-interactive shell gives a background job /dev/null as stdin; hand it the ACP pipe via fd 3.
  const agent = `'${process.execPath}' '${TEST_AGENT_MAIN}' --script '${script}' <&3 3<&-`;
  const line = `sleep 600 </dev/null >/dev/null 2>&1 & exec 3<&0; ${agent} & wait`;
  return testAgentCommand(script, { command: 'sh', args: ['-c', line] });
}

describe('agentctl agent runtime: the agent process', () => {
  const cleanup = useCleanup();

  async function start(env: Record<string, string> = {}) {
    const daemon = await startAgentctl(cleanup, { KANDEV_AGENTCTL_AGENT_STOP_GRACE_MS: '2000', ...env });
    const client = agentctlClient(cleanup, daemon.ready.grpcPort);
    const script = writeAgentScript(cleanup, SCRIPT);
    const logs = daemon.logs;
    const ready = () =>
      waitUntil(
        async () => {
          const agent = await agentState(client, SESSION);
          return agent.status === 'ready' ? agent : undefined;
        },
        { timeoutMs: 20_000, logs, what: 'the agent to be ready' },
      );
    return { daemon, client, script, logs, ready };
  }

  test('SIGKILL of the agent mid-turn: turn_ended failed, then agent_exited unexpected with the reason', async () => {
    const { client, script, logs, ready } = await start();
    const backend = await attachBackend(cleanup, client, logs);
    await createSession(client, agentLaunchConfig(testAgentCommand(script)));
    const { pid } = await ready();
    await prompt(client, SESSION, 'p-wait', 'please wait');
    await waitUntil(() => agentPromptsLogged(logs) === 1, {
      timeoutMs: 20_000,
      logs,
      what: 'the agent to take the prompt',
    });
    killPid(pid ?? -1, 'SIGKILL');

    const exited = await backend.waitFor((e) => e.kind === 'agent_exited', 'agent_exited');
    expect(exited).toMatchObject({ exitCode: null, signal: 'SIGKILL', reason: 'killed by SIGKILL', expected: false });
    expect(backend.kindsOf(SESSION)).toEqual([
      'agent_started',
      'turn_started',
      'turn_ended:failed:agent exited: killed by SIGKILL',
      'agent_exited:unexpected',
    ]);
    expect(await agentState(client, SESSION)).toMatchObject({ status: 'exited', exitReason: 'killed by SIGKILL' });
    expect(await grpcFailureCode(prompt(client, SESSION, 'p-next', 'hello'))).toBe(status.FAILED_PRECONDITION);
  });

  test('StopSession stops the agent (agent_exited expected) and drops the session', async () => {
    const { client, script, logs, ready } = await start();
    const backend = await attachBackend(cleanup, client, logs);
    await createSession(client, agentLaunchConfig(testAgentCommand(script)));
    const { pid } = await ready();
    expect(await stopSession(client, SESSION)).toEqual({ stopped: true });
    expect(isLiveProcess(pid ?? -1)).toBe(false);
    const exited = await backend.waitFor((e) => e.kind === 'agent_exited', 'agent_exited');
    expect(exited).toMatchObject({ expected: true, reason: 'stopped by agentctl (killed by SIGTERM)' });
    expect(await grpcFailureCode(agentState(client, SESSION))).toBe(status.NOT_FOUND);
  });

  test('StopSession leaves no orphans: every process of the agent group is gone', async () => {
    const { client, script, logs, ready } = await start();
    await createSession(client, agentLaunchConfig(shellWrappedAgent(script)));
    const { pid } = await ready();
    const group = liveGroupMembers(pid ?? -1);
    cleanup.defer(() => group.forEach((member) => killPid(member)));
    expect(group.length).toBeGreaterThanOrEqual(3);
    expect(await stopSession(client, SESSION)).toEqual({ stopped: true });
    await waitUntil(() => group.every((member) => !isLiveProcess(member)), {
      timeoutMs: 5_000,
      logs,
      what: 'the group to be gone',
    });
  });

  test('an agent that crashes leaves no orphans either: the rest of its group is killed', async () => {
    const { client, script, logs, ready } = await start();
    const backend = await attachBackend(cleanup, client, logs);
    await createSession(client, agentLaunchConfig(shellWrappedAgent(script)));
    const { pid } = await ready();
    const group = liveGroupMembers(pid ?? -1);
    cleanup.defer(() => group.forEach((member) => killPid(member)));
    expect(group.length).toBeGreaterThanOrEqual(3);
    killPid(pid ?? -1, 'SIGKILL');
    await backend.waitFor((e) => e.kind === 'agent_exited', 'agent_exited');
    await waitUntil(() => group.every((member) => !isLiveProcess(member)), {
      timeoutMs: 5_000,
      logs,
      what: 'the group to be gone',
    });
  });

  test('resume: a higher revision with resumeAcpSessionId restarts the agent on the same ACP session (session/load)', async () => {
    const { client, script, logs, ready } = await start();
    const backend = await attachBackend(cleanup, client, logs);
    await createSession(client, agentLaunchConfig(testAgentCommand(script)));
    const first = await ready();
    await prompt(client, SESSION, 'p1', 'hello');
    await backend.waitFor((e) => e.kind === 'turn_ended', 'the first turn');

    const resumed = agentLaunchConfig(testAgentCommand(script, { resumeAcpSessionId: first.acpSessionId }), {
      revision: 2,
      mcpToken: RESUME_TOKEN,
    });
    await createSession(client, resumed);
    expect(isLiveProcess(first.pid ?? -1)).toBe(false);
    const second = await ready();
    expect(second.pid).not.toBe(first.pid);
    expect(second).toMatchObject({ loaded: true, acpSessionId: first.acpSessionId });

    // Prompt ids survive the restart; the new agent reaches the MCP server with the new token.
    expect(await prompt(client, SESSION, 'p1', 'hello')).toMatchObject({
      duplicate: true,
      turn: { status: 'completed' },
    });
    await prompt(client, SESSION, 'p2', 'please finish');
    await backend.waitFor((e) => e.kind === 'turn_ended' && e.turn.promptId === 'p2', 'the resumed turn');
    expect(backend.kindsOf(SESSION)).toEqual([
      'agent_started',
      'turn_started',
      'agent_message',
      'turn_ended:completed:end_turn',
      'agent_exited:expected',
      'agent_started',
      'turn_started',
      'tool_call:get_task_kandev:in_progress',
      'tool_call:get_task_kandev:completed',
      'agent_message',
      'turn_ended:completed:end_turn',
    ]);
    expect(
      backend.events.filter((e) => e.kind === 'agent_started').map((e) => e.kind === 'agent_started' && e.loaded),
    ).toEqual([false, true]);
    expect(backend.toolCalls.map((c) => [c.tool_name, c.revision])).toEqual([['get_task_kandev', '2']]);
  });

  test('a command that cannot be spawned: agent_exited with the reason, the session stays for MCP', async () => {
    const { client, logs } = await start();
    const backend = await attachBackend(cleanup, client, logs);
    await createSession(
      client,
      agentLaunchConfig(testAgentCommand('unused', { command: '/nonexistent/agent-binary', args: [] })),
    );
    const exited = await backend.waitFor((e) => e.kind === 'agent_exited', 'agent_exited');
    expect(exited).toMatchObject({
      expected: false,
      reason: 'could not start: spawn /nonexistent/agent-binary ENOENT',
    });
    expect(await agentState(client, SESSION)).toMatchObject({ status: 'exited', pid: null });

    const badCwd = testAgentCommand('unused', { cwd: '/nonexistent/dir' });
    await createSession(client, agentLaunchConfig(badCwd, { sessionId: sessionUuid('bad-cwd') }));
    const exitedBadCwd = await backend.waitFor(
      (e) => e.kind === 'agent_exited' && e.sessionId === sessionUuid('bad-cwd'),
      'agent_exited (bad cwd)',
    );
    expect(exitedBadCwd).toMatchObject({
      reason: expect.stringContaining('working directory /nonexistent/dir does not exist') as string,
    });
  });

  test("agentctl's shutdown stops every agent", async () => {
    const { daemon, client, script, ready } = await start();
    await createSession(client, agentLaunchConfig(testAgentCommand(script)));
    const { pid } = await ready();
    expect(await stopProcess(daemon.child, { graceMs: 10_000 })).toEqual({ code: 0, signal: null });
    expect(isLiveProcess(pid ?? -1)).toBe(false);
  });

  test("the agent's environment: the safe base plus the profile, never a KANDEV_ variable", async () => {
    const { client, logs } = await start({ HOME: '/tmp', LANG: 'C.UTF-8', AGENTCTL_ONLY_SECRET: 'not-for-agents' });
    const backend = await attachBackend(cleanup, client, logs);
    const out = join(tempDir(cleanup, 'kandev-agent-env-'), 'env.json');
    const dumpEnv = "require('fs').writeFileSync(process.argv[1], JSON.stringify(process.env))";
    await createSession(
      client,
      agentLaunchConfig({
        ...testAgentCommand('unused', { command: process.execPath, args: ['-e', dumpEnv, out] }),
        env: { PROFILE_VAR: 'from-profile', KANDEV_AGENTCTL_TOKEN: 'forged-by-profile' },
      }),
    );
    await backend.waitFor((e) => e.kind === 'agent_exited', 'the env dump to exit');
    const env = JSON.parse(readFileSync(out, 'utf8')) as Record<string, string>;
    expect(Object.keys(env).filter((name) => name.toUpperCase().startsWith('KANDEV_'))).toEqual([]);
    expect(env).toMatchObject({ PROFILE_VAR: 'from-profile', HOME: '/tmp', LANG: 'C.UTF-8', PATH: process.env.PATH });
    expect(env.AGENTCTL_ONLY_SECRET).toBeUndefined();
    expect(JSON.stringify(env)).not.toContain('test-control-token');
  });
});
