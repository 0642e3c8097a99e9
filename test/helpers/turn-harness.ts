// The backend's turn model in process, over a real SQLite file, with the fake agentctl: the session,
// prompt and question services, the drainer, the session event handler (fed by the fake, as the
// Attach stream would) and the boot reconcile, wired by main.ts's composition root. A second harness
// over the same data dir and the same fake is a restarted backend.
import {
  type BackendConfig,
  type BackoffPolicy,
  createApp,
  createInProcessBackend,
  type DrainGate,
  ENDPOINT,
  FakeAgentctl,
  fakeAgentctlPort,
  type InProcessBackendOptions,
  listen,
  type QueuedPrompt,
} from '@kandev/backend/testing';
import { BackendApi } from './backend-api';
import type { Cleanup } from './cleanup';
import { tempDir } from './processes';
import { waitUntil } from './wait';

export { ENDPOINT, FakeAgentctl };

const START = Date.parse('2026-12-01T10:00:00.000Z');

export interface TurnHarnessOptions {
  /** Reuse a data dir (a restarted backend); default: a fresh one. */
  dataDir?: string;
  /** Reuse an agentctl (it outlives the backend); default: a fresh fake. */
  agentctl?: FakeAgentctl;
  promptRetry?: BackoffPolicy;
  gate?: DrainGate;
  /** Another replica: this open database (another harness's `db`) and these lease settings. */
  replica?: { db?: InProcessBackendOptions['db']; replicas: NonNullable<BackendConfig['replicas']> };
}

export type TurnHarness = Awaited<ReturnType<typeof createTurnHarness>>;

export async function createTurnHarness(cleanup: Cleanup, options: TurnHarnessOptions = {}) {
  const dataDir = options.dataDir ?? tempDir(cleanup);
  let ticks = 0;
  const clock = () => new Date(START + ticks++); // distinct, increasing timestamps
  const agentctl = options.agentctl ?? new FakeAgentctl();
  const { db, logger, backend } = await createInProcessBackend(cleanup, {
    dataDir,
    db: options.replica?.db,
    clock,
    agentctl: fakeAgentctlPort(agentctl),
    // Prompt re-sends (and refresh retries) follow this schedule.
    config: {
      refreshRetry: options.promptRetry ?? { baseMs: 2, maxDelayMs: 10, maxAttempts: 5 },
      ...(options.replica === undefined ? {} : { replicas: options.replica.replicas }),
    },
    gate: options.gate,
  });
  const { uow, turns, sessions, prompts, questions } = backend;
  // The Attach stream: the latest backend to attach gets agentctl's events (and what it buffered).
  const attach = () => agentctl.attach((event) => void turns.events.handle(event, ENDPOINT.grpcAddress));
  attach();

  let seeded = 0;
  /**
   * A workspace (or the given one), an agent profile and a task using it (under `parentId`, autopilot
   * when asked); resolves the task id.
   */
  async function agentTask(
    options: { agent?: boolean; localPath?: string; workspaceId?: string; parentId?: string; autopilot?: boolean } = {},
  ): Promise<string> {
    const n = ++seeded;
    const at = clock().toISOString();
    const workspaceId = options.workspaceId ?? `w${n}`;
    if (options.workspaceId === undefined) {
      await uow.read.workspaces.insert({ id: workspaceId, name: workspaceId, createdAt: at });
    }
    const profileId = options.agent === false ? null : `profile${n}`;
    if (profileId !== null) {
      await uow.read.agentProfiles.insert({
        id: profileId,
        name: profileId,
        command: 'test-agent',
        args: ['--script', 'x.json'],
        env: { AGENT_API_KEY: `secret-${n}` },
        supportsMcp: true,
        createdAt: at,
      });
    }
    const taskId = `t${n}`;
    await uow.read.tasks.insert({
      id: taskId,
      workspaceId,
      parentId: options.parentId ?? null,
      title: taskId,
      state: 'todo',
      autopilot: options.autopilot ?? false,
      agentProfileId: profileId,
      archivedAt: null,
      createdAt: at,
      updatedAt: at,
    });
    if (options.localPath !== undefined) {
      const repositoryId = `r${n}`;
      await uow.read.repositories.insert({
        id: repositoryId,
        workspaceId,
        sourceType: 'local',
        provider: null,
        providerHost: null,
        owner: null,
        name: repositoryId,
        remoteUrl: null,
        localPath: options.localPath,
        identityKey: `local:${options.localPath}`,
        createdAt: at,
      });
      await uow.read.tasks.attachRepositories(taskId, [{ repositoryId, baseBranch: null }], {
        batchId: `b${n}`,
        createdAt: at,
      });
    }
    return taskId;
  }

  /** Launches a session of a new agent task and waits until its agent is ready (waiting for input). */
  async function readySession(): Promise<string> {
    const launched = await sessions.launch(await agentTask(), { surface: 'kanban_task', owns_task_title: false });
    await untilState(launched.session.id, 'waiting_for_input');
    return launched.session.id;
  }

  async function state(sessionId: string): Promise<string | undefined> {
    return (await uow.read.sessions.findById(sessionId))?.state;
  }

  async function untilState(sessionId: string, expected: string): Promise<void> {
    await waitUntil(async () => (await state(sessionId)) === expected, {
      timeoutMs: 5_000,
      what: `session ${sessionId} to be ${expected} (is ${await state(sessionId)})`,
    });
  }

  async function queue(sessionId: string): Promise<QueuedPrompt[]> {
    return uow.read.promptQueue.listForSession(sessionId);
  }

  /** Queues an operator prompt as REST does (recorded + queued + kick); resolves its id. */
  async function prompt(sessionId: string, text: string): Promise<string> {
    return (await prompts.enqueue(sessionId, { prompt: text })).queued.id;
  }

  /** Waits until the fake runs a turn for `promptId` (it was delivered and not finished). */
  async function untilRunning(sessionId: string, promptId: string): Promise<void> {
    await waitUntil(() => agentctl.agents.get(sessionId)?.currentPromptId === promptId, {
      timeoutMs: 5_000,
      what: `prompt ${promptId} to run in ${sessionId}`,
    });
  }

  /** Waits until every prompt of the session is finished (completed or failed). */
  async function untilDrained(sessionId: string): Promise<QueuedPrompt[]> {
    return waitUntil(
      async () => {
        const all = await queue(sessionId);
        return all.every((p) => p.status === 'completed' || p.status === 'failed') ? all : undefined;
      },
      { timeoutMs: 5_000, what: `the queue of ${sessionId} to drain` },
    );
  }

  /** The backend's REST routes (sessions, prompts, ...) on a loopback port, with its app factory. */
  async function serve(): Promise<BackendApi> {
    const app = createApp(logger, backend.routers);
    const http = await listen(app, '127.0.0.1', 0);
    cleanup.defer(() => http.close());
    return new BackendApi(`http://127.0.0.1:${http.port}`);
  }

  return {
    backend,
    db,
    uow,
    dataDir,
    clock,
    agentctl,
    turns,
    sessions,
    prompts,
    questions,
    attach,
    agentTask,
    readySession,
    state,
    untilState,
    queue,
    prompt,
    untilRunning,
    untilDrained,
    serve,
  };
}

/** Ends the turn that runs for `promptId` once it runs (the agent answered). */
export async function finishWhenRunning(
  h: TurnHarness,
  sessionId: string,
  promptId: string,
  options: Parameters<FakeAgentctl['finishTurn']>[1] = {},
): Promise<void> {
  await h.untilRunning(sessionId, promptId);
  h.agentctl.finishTurn(sessionId, options);
}
