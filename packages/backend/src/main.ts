import type { Router } from 'express';
import { createAgentProfileRoutes } from './agent-profiles/agent-profile-routes';
import { AgentProfileService } from './agent-profiles/agent-profile-service';
import { type Config, ConfigError, loadConfig } from './config';
import { connectableHost } from './connectable-host';
import { AgentctlClients } from './executors/agentctl-client';
import { AgentctlEventHub } from './executors/agentctl-event-hub';
import { createAgentctlRoutes } from './executors/agentctl-routes';
import { AttachPool } from './executors/attach-pool';
import { createExecutors } from './executors/create-executors';
import type { ExecutorRegistry } from './executors/executor-registry';
import { SessionRoutedConnector } from './executors/session-routed-connector';
import { createApp } from './http/app';
import { listen } from './http/http-server';
import { createLogger, type Logger } from './logger';
import { createMessageRoutes } from './messages/message-routes';
import { createGitlabVerifier, gitlabClientFor } from './gitlab/gitlab-credentials';
import { MrEvaluator, type WorkspaceGitlab } from './mr-lifecycle/mr-evaluator';
import { createMrLifecycleRoutes } from './mr-lifecycle/mr-lifecycle-routes';
import { MrPoller } from './mr-lifecycle/mr-poller';
import { MrUpdates } from './mr-lifecycle/mr-updates';
import { createPromptRoutes } from './prompt-queue/prompt-routes';
import { PromptService } from './prompt-queue/prompt-service';
import { createQuestionRoutes } from './questions/question-routes';
import { QuestionService } from './questions/question-service';
import { createProviderAutomationRoutes } from './provider-automation/provider-automation-routes';
import { ReviewLinkService } from './provider-automation/review-link-service';
import { WorkspaceCredentialService } from './provider-automation/workspace-credential-service';
import { createRepositoryRoutes } from './repositories/repository-routes';
import { RepositoryService } from './repositories/repository-service';
import { AgentctlLossHandler } from './sessions/agentctl-loss';
import { createSessionRoutes } from './sessions/session-routes';
import { ProviderPusher } from './sessions/provider-pusher';
import { ProviderRefreshService } from './sessions/provider-refresh-service';
import { AgentctlRuntimeSessions } from './sessions/runtime-session-control';
import { OrphanSweeper } from './sessions/orphan-sweeper';
import { isLive } from './sessions/session-lifecycle';
import { SessionReconciler } from './sessions/session-reconciler';
import { SessionService } from './sessions/session-service';
import { installShutdown, runShutdown, type ShutdownStep } from './shutdown';
import { createDatabase, migrateToLatest } from './store/database';
import { createUnitOfWork, type UnitOfWork } from './store/unit-of-work';
import { createTaskRoutes } from './tasks/task-routes';
import { TaskService } from './tasks/task-service';
import { createToolCallChannel } from './tool-calls/tool-call-channel';
import type { ToolHandlers } from './tool-calls/tool-call';
import { createToolHandlers } from './tool-calls/tool-handler-registry';
import { createTurnRuntime, type TurnRuntime } from './turns/turn-runtime';
import { createWorkspaceRoutes } from './workspaces/workspace-routes';
import { WorkspaceService } from './workspaces/workspace-service';
import { createWorkspaceSourceRoutes } from './workspace-sources/workspace-source-routes';
import { WorkspaceSourceService } from './workspace-sources/workspace-source-service';

function loadConfigOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`backend: ${error.message}\n`);
    process.exit(2);
  }
}

/**
 * Services and their routers over one database and every executor's agentctls: `executors` picks the
 * executor per launch and finds each session's agentctl; `routed` sends each per-session call there.
 */
function createServices(
  config: Config,
  logger: Logger,
  base: { uow: UnitOfWork; executors: ExecutorRegistry; routed: SessionRoutedConnector; clients: AgentctlClients },
): {
  routers: Router[];
  reconciler: SessionReconciler;
  orphans: OrphanSweeper;
  toolHandlers: ToolHandlers;
  questions: QuestionService;
  turns: TurnRuntime;
  poller: MrPoller;
} {
  const { uow, executors: executor } = base;
  const clock = () => new Date();
  const component = (name: string) => logger.child({ component: name });
  const agentctlDeps = { uow, clock, executor, agentctls: executor, agentctl: base.routed };
  const pusher = new ProviderPusher({ ...agentctlDeps, logger: component('refresh') });
  const reconciler = new SessionReconciler({
    uow,
    pusher,
    policy: config.refreshRetry,
    logger: component('reconciler'),
  });
  const refresh = new ProviderRefreshService({ pusher, scheduler: reconciler, logger: component('refresh') });
  const repositories = new RepositoryService({ uow, clock, gitlabHosts: config.gitlabHosts });
  const orphans = new OrphanSweeper({
    uow,
    executor,
    agentctls: executor,
    agentctl: base.routed,
    clients: base.clients,
    logger: component('orphans'),
    followUpDelaysMs: [1, 4, 16].map((factor) => factor * config.agentctl.callTimeoutMs),
  });
  // Prompt re-sends after an ambiguous failure follow the refresh retry schedule.
  const turns = createTurnRuntime({ ...agentctlDeps, refreshes: reconciler, promptRetry: config.refreshRetry, logger });
  const sources = new WorkspaceSourceService({ uow, clock, repositories, refresh, logger: component('sources') });
  const tasks = new TaskService({ uow, clock });
  const runtimeSessions = new AgentctlRuntimeSessions({ executor, agentctls: executor, agentctl: base.routed });
  const questions = new QuestionService({
    uow,
    clock,
    timeoutMs: config.questionTimeoutMs,
    logger: component('questions'),
    prompts: turns.drainer,
  });
  const sessions = new SessionService({
    ...agentctlDeps,
    refreshes: reconciler,
    orphans,
    lanes: turns.lanes,
    prompts: turns.drainer,
    runtimeSessions,
    questions,
    logger: component('sessions'),
  });
  const toolHandlers = createToolHandlers({
    uow,
    clock,
    logger: component('tools'),
    tasks,
    workspaceSources: sources,
    runtimeSessions,
    questions,
    prompts: turns.drainer,
  });
  // GitLab MR lifecycle: each workspace's own token and base URL, never an ambient one.
  const gitlab: WorkspaceGitlab = async (workspaceId) => {
    const credential = await uow.read.workspaceCredentials.findSecret(workspaceId, 'gitlab');
    return credential === undefined ? undefined : gitlabClientFor(credential);
  };
  const updates = new MrUpdates(component('mr-lifecycle'));
  const evaluator = new MrEvaluator({ uow, clock, logger: component('mr-lifecycle'), gitlab, prompts: turns.drainer });
  updates.subscribe((event) => evaluator.handle(event));
  const poller = new MrPoller({
    uow,
    clock,
    logger: component('mr-poller'),
    gitlab,
    updates,
    policy: config.gitlabPoll,
  });
  const routers = [
    createWorkspaceRoutes(new WorkspaceService({ uow, clock })),
    createRepositoryRoutes(repositories),
    createAgentProfileRoutes(new AgentProfileService({ uow, clock })),
    createTaskRoutes(tasks),
    createWorkspaceSourceRoutes(sources),
    createSessionRoutes(sessions),
    createPromptRoutes(new PromptService({ uow, clock, prompts: turns.drainer, logger: component('prompts') })),
    createAgentctlRoutes(executor),
    createMessageRoutes(uow),
    createQuestionRoutes(questions),
    createProviderAutomationRoutes({
      links: new ReviewLinkService({ uow, clock }),
      credentials: new WorkspaceCredentialService({ uow, clock, verifiers: { gitlab: createGitlabVerifier() } }),
    }),
    createMrLifecycleRoutes({ uow, evaluator }),
  ];
  return { routers, reconciler, orphans, toolHandlers, questions, turns, poller };
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel);
  const steps: ShutdownStep[] = []; // reverse start order: unshift as things start
  // Installed first and reading `steps` when a signal comes: a stop during start-up still stops the
  // agentctl already spawned (it would otherwise outlive the backend).
  installShutdown({ logger, timeoutMs: config.shutdownTimeoutMs, steps, exit: (code) => process.exit(code) });
  try {
    const db = createDatabase(config.dataDir);
    steps.unshift({ name: 'database', run: () => db.destroy() });
    const applied = await migrateToLatest(db);
    logger.info({ dataDir: config.dataDir, applied }, 'database ready');

    const uow = createUnitOfWork(db);
    const events = new AgentctlEventHub();
    const executors = createExecutors(config, logger, events);
    steps.unshift({ name: 'agentctl', run: () => executors.stop() });
    const clients = new AgentctlClients(config.agentctl.callTimeoutMs);
    steps.unshift({ name: 'agentctl clients', run: () => clients.closeAll() });
    const findSession = (id: string) => uow.read.sessions.findById(id);
    const routed = new SessionRoutedConnector({ clients, directory: executors, findSession });
    const { routers, reconciler, orphans, toolHandlers, questions, turns, poller } = createServices(config, logger, {
      uow,
      executors,
      routed,
      clients,
    });
    // Questions left pending past their expiry by a previous process: their calls are gone.
    const expired = await questions.expireStale();
    if (expired > 0) logger.info({ expired }, 'stale questions expired');
    steps.unshift({ name: 'reconciler', run: () => reconciler.stop() });
    steps.unshift({ name: 'orphan sweeper', run: () => orphans.stop() });
    steps.unshift({ name: 'turns', run: () => turns.stop() }); // after attach: its events finish first
    const heartbeatMs = config.toolCallHeartbeatMs;
    // One Attach stream per agentctl in use (the local one, a remote, each session's container).
    const attach = new AttachPool(() =>
      createToolCallChannel({
        uow,
        handlers: toolHandlers,
        events: turns.events,
        heartbeatMs,
        logger: logger.child({ component: 'attach' }),
      }),
    );
    const losses = new AgentctlLossHandler({ uow, clock: () => new Date(), lanes: turns.lanes, logger });
    events.subscribe({
      up: (slot, endpoint) => attach.up(slot, endpoint),
      down: (slot, endpoint) => {
        attach.down(slot, endpoint);
        clients.close(endpoint);
      },
      lost: (session, reason) => void losses.handle(session, reason),
    });
    steps.unshift({ name: 'attach', run: () => attach.stop() }); // before agentctl stops and the db closes

    // Adopt the local agentctl (or start it), reattach this backend's live containers and remove the
    // rest, announce remotes. An executor that cannot recover is logged; its sessions fail at reconcile.
    const failures = await executors.recover(async (id) => {
      const session = await findSession(id);
      return session !== undefined && isLive(session.state);
    });
    for (const [executor, err] of failures) logger.error({ err, executor }, 'executor recovery failed');
    const defaultFailure = failures.get(executors.defaultExecutor);
    // As before executors were pluggable: no default agentctl, no backend.
    if (defaultFailure !== undefined) throw defaultFailure;
    // Before serving: sessions agentctl lost fail, turns it finished or never saw are settled or sent
    // again (same prompt id), idle sessions' queues drain. Never fatal: a failure is logged.
    await turns.boot.run().catch((err: unknown) => logger.error({ err }, 'boot reconcile failed'));
    const app = createApp(logger.child({ component: 'http' }), routers);
    const http = await listen(app, config.http.host, config.http.port);
    steps.unshift({ name: 'http', run: () => http.close() });

    const url = `http://${connectableHost(config.http.host)}:${http.port}`;
    const status = executors.status();
    const agentctl = { pid: status.pid, grpcAddress: status.grpcAddress, mcpUrl: status.mcpBaseUrl };
    process.stdout.write(`${JSON.stringify({ event: 'ready', httpPort: http.port, url, agentctl })}\n`);
    logger.info({ url }, 'backend listening');
    // Sessions left behind by a failed refresh (or by a backend that stopped before repairing them).
    reconciler.sweep().catch((err: unknown) => logger.error({ err }, 'boot reconcile sweep failed'));
    // Runtime sessions an adopted agentctl holds for sessions this backend recorded as ended.
    orphans.sweep().catch((err: unknown) => logger.error({ err }, 'boot orphan sweep failed'));
    // After boot, so a poll's prompts find the recovered sessions; stopped before the database closes.
    poller.start();
    steps.unshift({ name: 'mr poller', run: () => poller.stop() });
  } catch (err) {
    logger.fatal({ err }, 'backend failed to start');
    await runShutdown(logger, steps);
    process.exit(1);
  }
}

void main();
