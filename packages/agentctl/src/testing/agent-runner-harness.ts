// Test-only: an AgentRunner wired to a fake process and a fake ACP connection, recording its events.
import type { SessionEventBody } from '@kandev/protocol';
import type { AgentLaunchSpec } from '../agents/agent-launch-spec';
import { AgentRunner } from '../agents/agent-runner';
import { PromptLedger } from '../agents/prompt-ledger';
import { FakeAcpConnection } from './fake-acp-connection';
import { FakeAgentProcess } from './fake-agent-process';
import { FakeToolView } from './fake-tool-view';
import type { PermissionAsker } from '../agents/permission-responder';
import { silentLogger } from './silent-logger';

export const NOW = new Date(Date.UTC(2026, 11, 1, 9, 0, 0));
export const TOKEN = 'mcp-token-0123456789abcdef0123456789abcdef';
export const MCP_SERVER = {
  name: 'kandev',
  url: 'http://127.0.0.1:7422/sessions/s-1/mcp',
  headers: [{ name: 'Authorization', value: `Bearer ${TOKEN}` }],
};
export const SPEC: AgentLaunchSpec = {
  sessionId: 's-1',
  taskId: 't-1',
  permissionPolicy: 'allow_all',
  process: { command: 'agent', args: ['--acp'], cwd: '/work', env: { PATH: '/bin' } },
  mcpServer: MCP_SERVER,
  systemPrompt: 'You are a kandev task agent.',
  resumeAcpSessionId: null,
};
export const START_TIMEOUT_MS = 1_000;
export const STOP_GRACE_MS = 500;

/** Lets every promise chain that is ready run (no timers involved). */
export async function flush(): Promise<void> {
  for (let i = 0; i < 50; i += 1) await Promise.resolve();
}

export function setup(
  spec: Partial<AgentLaunchSpec> = {},
  options: {
    process?: FakeAgentProcess;
    configure?: (conn: FakeAcpConnection) => void;
    tools?: FakeToolView;
    permissions?: PermissionAsker;
  } = {},
) {
  const events: SessionEventBody[] = [];
  const tools = options.tools ?? new FakeToolView();
  const ledger = new PromptLedger();
  const proc = options.process ?? new FakeAgentProcess();
  const connections: FakeAcpConnection[] = [];
  const spawn = jest.fn(() => proc);
  const runner = new AgentRunner({ ...SPEC, ...spec }, ledger, {
    spawn,
    connect: (_stdio, acpEvents) => {
      const conn = new FakeAcpConnection(acpEvents);
      options.configure?.(conn);
      connections.push(conn);
      return conn;
    },
    publish: (event) => events.push(event),
    log: silentLogger,
    now: () => NOW,
    startTimeoutMs: START_TIMEOUT_MS,
    stopGraceMs: STOP_GRACE_MS,
    tools,
    permissions: options.permissions,
  });
  const conn = (): FakeAcpConnection => {
    const c = connections[0];
    if (c === undefined) throw new Error('not connected');
    return c;
  };
  const kinds = () => events.map((e) => e.kind);
  return { runner, events, ledger, proc, spawn, conn, kinds, tools };
}

export async function started(
  spec: Partial<AgentLaunchSpec> = {},
  configure?: (conn: FakeAcpConnection) => void,
  options: { tools?: FakeToolView; permissions?: PermissionAsker } = {},
) {
  const t = setup(spec, { configure, ...options });
  t.runner.start();
  await flush();
  return t;
}
