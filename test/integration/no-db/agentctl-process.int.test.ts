// agentctl as a process: the ready-line contract, config failures, graceful signals, and surviving the
// death of whatever launched it (its stdout/stderr pipes break; it must keep serving).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkHealth, launchConfigToWire, mcpPathFor, type WireSessionStateOutput } from '@kandev/protocol';
import { agentctlClient, unary } from '../../helpers/agentctl-grpc';
import { useCleanup } from '../../helpers/cleanup';
import { namedLaunchConfig } from '../../helpers/launch-configs';
import { connectMcp } from '../../helpers/mcp';
import {
  AGENTCTL_MAIN,
  type AgentctlReady,
  isPidAlive,
  killPid,
  startAgentctl,
  startDaemon,
  stopProcess,
  tempDir,
  TEST_CONTROL_TOKEN,
} from '../../helpers/processes';
import { sessionUuid } from '../../helpers/session-ids';
import { waitUntil } from '../../helpers/wait';

type SessionState = WireSessionStateOutput;
interface SessionList {
  sessions: WireSessionStateOutput[];
}

const MCP_TOKEN = 'process-test-mcp-token-0123456789abcdef0123';

/** Sessions are named in the test; on the wire each name is a UUID (sessionUuid). */
const launch = (name: string) =>
  launchConfigToWire(
    namedLaunchConfig(name, MCP_TOKEN, { taskId: 'task-1', questionCapability: 'none', systemPrompt: '' }),
  );

/** Runs agentctl with exactly `env` (plus PATH) until it exits; resolves its code and output. */
async function runToExit(env: Record<string, string>) {
  const child = spawn(process.execPath, [AGENTCTL_MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

describe('agentctl process', () => {
  const cleanup = useCleanup();

  test('the ready line is the only stdout output and reports the real ports', async () => {
    const daemon = await startAgentctl(cleanup);
    expect(daemon.ready).toEqual({
      event: 'ready',
      grpcPort: expect.any(Number) as number,
      mcpPort: expect.any(Number) as number,
      grpcTransport: 'plaintext',
      pid: daemon.child.pid,
    });
    expect(daemon.ready.grpcPort).toBeGreaterThan(0);
    expect(await checkHealth(`127.0.0.1:${daemon.ready.grpcPort}`, '', { timeoutMs: 2_000 })).toBe('SERVING');
    let laterStdout = '';
    daemon.child.stdout?.on('data', (chunk: Buffer) => (laterStdout += chunk.toString('utf8')));
    const client = agentctlClient(cleanup, daemon.ready.grpcPort);
    await unary<object, SessionState>(client, client.CreateSession, launch('s1'), TEST_CONTROL_TOKEN);
    expect(await stopProcess(daemon.child, { graceMs: 5_000 })).toEqual({ code: 0, signal: null });
    expect(laterStdout).toBe('');
    expect(daemon.logs()).toMatch(/"msg":"session created"/);
  });

  test.each(['SIGTERM', 'SIGINT'] as const)('%s with live MCP and gRPC clients: clean exit 0', async (signal) => {
    const daemon = await startAgentctl(cleanup);
    const client = agentctlClient(cleanup, daemon.ready.grpcPort);
    await unary<object, SessionState>(client, client.CreateSession, launch('s1'), TEST_CONTROL_TOKEN);
    const mcp = await connectMcp(
      cleanup,
      `http://127.0.0.1:${daemon.ready.mcpPort}${mcpPathFor(sessionUuid('s1'))}`,
      MCP_TOKEN,
    );
    await waitUntil(() => mcp.notificationStreamOpen(), { timeoutMs: 5_000, logs: daemon.logs });
    expect(await stopProcess(daemon.child, { graceMs: 5_000, signal })).toEqual({ code: 0, signal: null });
    expect(daemon.logs()).toMatch(/"msg":"agentctl stopped"/);
  });

  test.each<[string, Record<string, string>, RegExp]>([
    ['no control token', {}, /KANDEV_AGENTCTL_TOKEN or KANDEV_AGENTCTL_TOKEN_FILE/],
    ['a short control token', { KANDEV_AGENTCTL_TOKEN: 'hunter2-secret' }, /KANDEV_AGENTCTL_TOKEN:/],
    [
      'a bad port',
      { KANDEV_AGENTCTL_TOKEN: TEST_CONTROL_TOKEN, KANDEV_AGENTCTL_GRPC_PORT: 'http' },
      /KANDEV_AGENTCTL_GRPC_PORT/,
    ],
    ['a bad log level', { KANDEV_AGENTCTL_TOKEN: TEST_CONTROL_TOKEN, LOG_LEVEL: 'chatty' }, /LOG_LEVEL/],
    [
      'a TLS certificate without its key',
      { KANDEV_AGENTCTL_TOKEN: TEST_CONTROL_TOKEN, KANDEV_AGENTCTL_TLS_CERT: '/nonexistent/cert.pem' },
      /set both KANDEV_AGENTCTL_TLS_CERT and KANDEV_AGENTCTL_TLS_KEY/,
    ],
  ])('bad config (%s): exit 2, one stderr line naming the variable, no ready line', async (_name, env, named) => {
    const { code, stdout, stderr } = await runToExit(env);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(named);
    expect(stderr).not.toMatch(/hunter2|chatty/);
  });

  test('the control token can come from a file (trimmed)', async () => {
    const file = join(tempDir(cleanup), 'control-token');
    writeFileSync(file, `\n${TEST_CONTROL_TOKEN}\n`);
    const daemon = await startAgentctl(cleanup, { KANDEV_AGENTCTL_TOKEN: '', KANDEV_AGENTCTL_TOKEN_FILE: file });
    const client = agentctlClient(cleanup, daemon.ready.grpcPort);
    expect(await unary<object, SessionList>(client, client.ListSessions, {}, TEST_CONTROL_TOKEN)).toEqual({
      sessions: [],
      more: false,
    });
  });

  test('keeps serving after its launcher dies and its stdout/stderr pipes break', async () => {
    // The launcher starts agentctl with piped stdio, forwards the ready line, then exits at once.
    const launcher = join(tempDir(cleanup), 'launcher.js');
    writeFileSync(
      launcher,
      `const { spawn } = require('node:child_process');
       const child = spawn(process.execPath, [${JSON.stringify(AGENTCTL_MAIN)}], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
       child.stdout.once('data', (line) => process.stdout.write(line, () => process.exit(0)));`,
    );
    const started = await startDaemon<AgentctlReady>(cleanup, launcher, {
      KANDEV_AGENTCTL_TOKEN: TEST_CONTROL_TOKEN,
      KANDEV_AGENTCTL_GRPC_PORT: '0',
      KANDEV_AGENTCTL_MCP_PORT: '0',
      LOG_LEVEL: 'trace',
    });
    const { pid, grpcPort, mcpPort } = started.ready;
    cleanup.defer(() => killPid(pid));
    if (started.child.exitCode === null) await once(started.child, 'exit');

    // Every call below logs to the broken stderr pipe (EPIPE); agentctl must shrug it off.
    const client = agentctlClient(cleanup, grpcPort);
    for (const id of ['after-1', 'after-2', 'after-3'])
      await unary<object, SessionState>(client, client.CreateSession, launch(id), TEST_CONTROL_TOKEN);
    const mcp = await connectMcp(
      cleanup,
      `http://127.0.0.1:${mcpPort}${mcpPathFor(sessionUuid('after-1'))}`,
      MCP_TOKEN,
    );
    expect((await mcp.toolNames()).length).toBeGreaterThan(0);
    const sessions = await unary<object, SessionList>(client, client.ListSessions, {}, TEST_CONTROL_TOKEN);
    expect(sessions.sessions.map((s) => s.config?.session_id)).toEqual(
      ['after-1', 'after-2', 'after-3'].map(sessionUuid).sort(),
    );
    expect(isPidAlive(pid)).toBe(true);
    expect(await checkHealth(`127.0.0.1:${grpcPort}`, '', { timeoutMs: 2_000 })).toBe('SERVING');
  });
});
