// The executor conformance suite (every executor delivers the identical launch config): one scenario
// set, run against every executor. Each target starts a real backend configured to launch with that
// executor and says how to reach the agentctl a session runs on (its gRPC address and control token),
// found the way an operator would.
import type { AgentctlTls } from '@kandev/protocol';
import { AgentctlClient, type LaunchConfigView, toLaunchConfigView } from '@kandev/backend/testing';
import type { LaunchedSession } from './backend-api';
import type { Cleanup } from './cleanup';
import { type LiveApi, type SessionBody } from './live-updates';
import { connectMcp } from './mcp';
import { KANBAN_CORE, MR_PAIR, PR_PAIR, sorted } from './tool-names';
import { waitUntil } from './wait';

/** The agentctl a session runs on, as the test reaches it directly (not through the backend). */
export interface AgentctlAccess {
  grpcAddress: string;
  controlToken: string;
  /** The agentctl serves TLS (the test holds the CA, and a client certificate for mutual TLS). */
  tls?: AgentctlTls;
}

export interface ConformanceBackend {
  api: LiveApi;
  /** The executor name launches ask for ({executor} in POST /api/tasks/:id/sessions). */
  executor: string;
  /** Where the session's agentctl is, found independently of the backend's own report. */
  agentctlOf(sessionId: string): Promise<AgentctlAccess>;
  /** After a stop: the executor freed what it held for the session (docker: its container is gone). */
  expectReleased(sessionId: string): Promise<void>;
  logs: () => string;
}

export interface ConformanceTarget {
  name: string;
  start(cleanup: Cleanup): Promise<ConformanceBackend>;
}

/** GetSession straight from agentctl: the config it received, and the tools it serves. */
export async function heldByAgentctl(
  cleanup: Cleanup,
  access: AgentctlAccess,
  sessionId: string,
): Promise<{ config: LaunchConfigView; tools: string[] }> {
  const client = new AgentctlClient({ ...access, mcpBaseUrl: 'http://unused' }, 5_000);
  cleanup.defer(() => client.close());
  const state = await client.getSession(sessionId);
  return { config: toLaunchConfigView(state.config), tools: sorted(state.toolNames) };
}

/** Field by field, so a failure names the field an executor dropped or changed. */
export function expectSameConfig(received: LaunchConfigView, derived: LaunchConfigView): void {
  const fields = [...new Set([...Object.keys(derived), ...Object.keys(received)])].sort() as (keyof LaunchConfigView)[];
  for (const field of fields) {
    expect({ field, value: received[field] }).toEqual({ field, value: derived[field] });
  }
}

export interface Launched {
  session: LaunchedSession;
  stored: SessionBody & { executor: string; launch_config: LaunchConfigView };
  held: { config: LaunchConfigView; tools: string[] };
  tools: string[];
}

/** Launch with the target's executor; compare what agentctl received and serves with what the backend derived. */
export async function launchAndCompare(
  cleanup: Cleanup,
  target: ConformanceBackend,
  taskId: string,
  expectedTools: string[],
): Promise<Launched> {
  const session = await target.api.launch(taskId, { executor: target.executor });
  const reply = await target.api.request<Launched['stored']>('GET', `/api/sessions/${session.session_id}`);
  expect(reply.status).toBe(200);
  const stored = reply.body;
  expect(stored.executor).toBe(target.executor);
  // What the launch answered is what the backend stored (the desired config).
  expect(stored.launch_config).toEqual(session.launch_config);
  const held = await heldByAgentctl(cleanup, await target.agentctlOf(session.session_id), session.session_id);
  expectSameConfig(held.config, stored.launch_config);
  const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
  const tools = await mcp.toolNames();
  expect(tools).toEqual(sorted(expectedTools));
  expect(held.tools).toEqual(tools);
  return { session, stored, held, tools };
}

/** The scenario set, registered as tests for one target. */
export function describeConformance(target: ConformanceTarget, cleanup: Cleanup): void {
  async function setup() {
    const backend = await target.start(cleanup);
    const workspaceId = await backend.api.workspace();
    const repo = (remote_url: string) => backend.api.repository(workspaceId, { remote_url });
    return { backend, workspaceId, repo };
  }

  test(`${target.name}: normal task with github and gitlab: agentctl holds the derived config, field by field`, async () => {
    const { backend, workspaceId, repo } = await setup();
    const github = await repo('https://github.com/acme/api.git');
    const gitlab = await repo('git@gitlab.com:acme/web.git');
    const task = await backend.api.task(workspaceId, { title: 'normal', repository_ids: [gitlab.id, github.id] });
    const launched = await launchAndCompare(cleanup, backend, task.id, [
      ...KANBAN_CORE,
      'ask_user_question_kandev',
      ...PR_PAIR,
      ...MR_PAIR,
    ]);
    expect(launched.held.config).toMatchObject({ question_capability: 'user', providers: ['github', 'gitlab'] });
  });

  test(`${target.name}: autopilot child (gitlab) and autopilot root (github + unknown host)`, async () => {
    const { backend, workspaceId, repo } = await setup();
    const parent = await backend.api.task(workspaceId, { title: 'parent' });
    const gitlab = await repo('https://gitlab.com/acme/group/web');
    const child = await backend.api.task(workspaceId, {
      title: 'child',
      parent_id: parent.id,
      autopilot: true,
      repository_ids: [gitlab.id],
    });
    const childLaunch = await launchAndCompare(cleanup, backend, child.id, [
      ...KANBAN_CORE,
      'ask_parent_question_kandev',
      ...MR_PAIR,
    ]);
    expect(childLaunch.held.config).toMatchObject({ question_capability: 'parent', providers: ['gitlab'] });

    const github = await repo('https://github.com/acme/root');
    const bitbucket = await repo('https://bitbucket.org/acme/lib.git');
    const root = await backend.api.task(workspaceId, {
      title: 'root',
      autopilot: true,
      repository_ids: [bitbucket.id, github.id],
    });
    const rootLaunch = await launchAndCompare(cleanup, backend, root.id, [...KANBAN_CORE, ...PR_PAIR]);
    expect(rootLaunch.held.config).toMatchObject({ question_capability: 'none', providers: ['github'] });
  });

  test(`${target.name}: a source added live reaches the session's agentctl; stop cleans up`, async () => {
    const { backend, workspaceId, repo } = await setup();
    const gitlab = await repo('https://gitlab.com/acme/web');
    const task = await backend.api.task(workspaceId, { title: 'live', repository_ids: [gitlab.id] });
    const { session } = await launchAndCompare(cleanup, backend, task.id, [
      ...KANBAN_CORE,
      'ask_user_question_kandev',
      ...MR_PAIR,
    ]);
    const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
    await waitUntil(() => mcp.notificationStreamOpen(), { timeoutMs: 5_000, logs: backend.logs, what: 'SSE stream' });

    const batch = await backend.api.addSources(task.id, [{ remote_url: 'https://github.com/acme/docs' }]);
    expect(batch.status).toBe(201);
    expect(batch.body.refresh.status).toBe('applied');
    await waitUntil(() => mcp.listChangedCount() >= 1, { timeoutMs: 5_000, logs: backend.logs, what: 'list_changed' });
    expect(await mcp.toolNames()).toEqual(sorted([...KANBAN_CORE, 'ask_user_question_kandev', ...PR_PAIR, ...MR_PAIR]));
    const stored = await backend.api.session(session.session_id);
    expect(stored).toMatchObject({ revision: 2, applied_revision: 2 });
    const access = await backend.agentctlOf(session.session_id);
    const held = await heldByAgentctl(cleanup, access, session.session_id);
    expectSameConfig(held.config, (stored as unknown as Launched['stored']).launch_config);

    const stopped = await backend.api.stopSession(session.session_id);
    expect(stopped.status).toBe(200);
    expect(stopped.body.state).toBe('cancelled');
    await backend.expectReleased(session.session_id);
    // The MCP endpoint no longer serves the session.
    await expect(mcp.toolNames()).rejects.toThrow();
  });
}
