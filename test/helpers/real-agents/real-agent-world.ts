// One real agent at work: a model-API stand-in for its family, a temp HOME, a real backend (its own
// agentctl, task checkouts on) whose task has a local git repository registered with provider github,
// the agent's shipped profile, and a launched session whose agent is ready. Driven over REST only.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentRuntimeApi, type RuntimeSessionView, waitForAgentReady } from '../agent-runtime';
import { liveGroupMembers } from '../agent-process-group';
import { BackendApi, type LaunchedSession } from '../backend-api';
import type { Cleanup } from '../cleanup';
import { makeRepository } from '../git-repos';
import type { ModelTurn } from '../model-apis/model-script';
import { type ModelStandin, startModelStandin } from '../model-apis/standin-server';
import { killPid, startBackend, stopProcess, tempDir } from '../processes';
import type { RealAgentKind } from './real-agent-kinds';
import { shippedProfile } from './shipped-profile';

export const TASK_TITLE = 'Fix the flaky login test';

export interface RealAgentWorld {
  agent: RealAgentKind;
  standin: ModelStandin;
  runtime: AgentRuntimeApi;
  /** The agent's HOME (agentctl passes the backend's HOME on to it). */
  home: string;
  /** The operator's own checkout, registered as the task's repository. */
  source: string;
  /** Where the agent works: the task workspace's worktree of `source`. */
  worktree: string;
  workspaceId: string;
  taskId: string;
  launched: LaunchedSession;
  sessionId: string;
  ready: RuntimeSessionView;
  /** Backend and agentctl logs and the stand-in's requests, for failure messages. */
  logs: () => string;
}

function tail(file: string, lines = 60): string {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n') : '';
}

/** Kills every process left in the groups of the agents a test saw (an adapter's orphaned CLI child). */
function killGroupsAtCleanup(cleanup: Cleanup, pids: Set<number>): void {
  cleanup.defer(() => {
    for (const pid of pids) for (const member of liveGroupMembers(pid)) killPid(member);
  });
}

export async function launchRealAgent(
  cleanup: Cleanup,
  agent: RealAgentKind,
  turns: readonly ModelTurn[] = [],
): Promise<RealAgentWorld> {
  const home = tempDir(cleanup, 'kandev-agent-home-');
  const source = makeRepository(tempDir(cleanup, 'kandev-agent-repo-'), 'app');
  const standin = await startModelStandin(cleanup, agent.family, turns);
  agent.prepareHome(home, standin.baseUrl);
  const agentPids = new Set<number>();
  killGroupsAtCleanup(cleanup, agentPids);

  const backend = await startBackend(cleanup, { HOME: home, KANDEV_WORKSPACE_CHECKOUT: 'true' });
  // A graceful stop first: the backend stops its agentctl, which stops the agent's process group.
  cleanup.defer(() => stopProcess(backend.child, { graceMs: 10_000 }));
  const logs = () =>
    [
      `--- backend\n${backend.logs().split('\n').slice(-40).join('\n')}`,
      `--- agentctl\n${tail(join(backend.dataDir, 'agentctl.log'))}`,
      `--- ${agent.family.name} stand-in\n${standin.summary()}`,
    ].join('\n');
  const runtime = new AgentRuntimeApi(new BackendApi(backend.ready.url, backend.apiToken), cleanup, logs);
  const { api } = runtime;

  const workspaceId = await api.workspace();
  const profile = shippedProfile(agent.profile, agent.env(standin.baseUrl, home));
  const profileId = (await api.create<{ id: string }>('/api/agent-profiles', profile)).id;
  const repository = await api.repository(workspaceId, { local_path: source, provider: 'github' });
  const task = await api.task(workspaceId, {
    title: TASK_TITLE,
    agent_profile_id: profileId,
    repository_ids: [repository.id],
  });
  const launched = await api.launch(task.id);
  const worktree = launched.launch_config.agent?.cwd;
  if (typeof worktree !== 'string') throw new Error(`no agent cwd in ${JSON.stringify(launched.launch_config)}`);
  const ready = await waitForAgentReady(runtime, launched.session_id).catch((error: unknown) => {
    throw new Error(`${agent.profile}: agent not ready\n${logs()}`, { cause: error });
  });
  if (typeof ready.agent?.pid === 'number') agentPids.add(ready.agent.pid);
  return {
    ...{ agent, standin, runtime, home, source, worktree, workspaceId, taskId: task.id },
    ...{ launched, sessionId: launched.session_id, ready, logs },
  };
}
