import type { Replicas } from '../platform/cluster/replicas';
import { EVENT_LOG_DEFAULTS } from '../platform/events/event-log-config';
import { commitHooksOver, eventWakeupsOver } from '../platform/cluster/replica-signals';
import { EventPruner } from '../platform/events/event-pruner';
import { EventStreams } from '../platform/events/event-stream';
import { Agentctls } from '../runtime/agentctl/agentctls';
import { GITHUB_DEFAULT_API_URL } from '../integrations/github/github-client';
import { githubClientFor } from '../integrations/github/github-credentials';
import { GitlabError } from '../integrations/gitlab/gitlab-client';
import type { Logger } from '../platform/logger/logger';
import { type BackendMetrics, createBackendMetrics } from '../platform/metrics/backend-metrics';
import { AGENT_SESSION_STATES } from '../runtime/sessions/agent-session';
import { pruneEndedSessionDetails } from '../runtime/sessions/store/session-history';
import { pruneAudit } from '../platform/events/audit-log';
import { MrEvaluator, type WorkspaceGitlab } from '../integrations/gitlab/mr-evaluator';
import { MrPoller } from '../integrations/gitlab/mr-poller';
import { MrUpdates } from '../integrations/gitlab/mr-updates';
import type { PromptKicker } from '../runtime/prompt-queue/drain-gate';
import { PrEvaluator, type WorkspaceGithub } from '../integrations/github/pr-evaluator';
import { PrPoller } from '../integrations/github/pr-poller';
import { PromptService } from '../runtime/session-control/prompt-service';
import { checkGitlabBaseUrl, type BaseUrlVerdict } from '../catalogue/credentials/gitlab-base-url';
import { ReviewLinkService } from '../integrations/provider-automation/review-link-service';
import { WorkspaceCredentialService } from '../catalogue/credentials/workspace-credential-service';
import { QuestionService, realTimer } from '../runtime/questions/question-service';
import { PermissionRequests } from '../runtime/permission-requests/permission-requests';
import { PermissionParentQuestions } from '../runtime/permission-requests/permission-parent';
import { PermissionGrants } from '../catalogue/permission-grants/grant-service';
import { RepositoryService } from '../catalogue/repositories/repository-service';
import { OrphanSweeper } from '../runtime/agentctl-repair/orphan-sweeper';
import { ProviderPusher } from '../runtime/provider-refresh/provider-pusher';
import { ProviderRefreshService } from '../runtime/provider-refresh/provider-refresh-service';
import { AgentctlRuntimeSessions } from '../runtime/session-control/runtime-session-control';
import { SessionReconciler } from '../runtime/provider-refresh/provider-reconciler';
import { SessionService } from '../runtime/session-control/session-service';
import { createUnitOfWork, type UnitOfWork } from '../platform/store/unit-of-work';
import { pendingActionsOf } from '../runtime/parent-questions/pending-action';
import { attentionOf } from '../runtime/parent-questions/task-attention';
import { TaskService } from '../catalogue/tasks/task-service';
import { createToolHandlers } from '../agent-api/tools/tool-handler-registry';
import { applyAgentGone } from '../runtime/turns/turn-outcome';
import { createTurnRuntime } from '../runtime/turns/turn-runtime';
import { WorkspaceSourceService } from '../runtime/workspace-sources/workspace-source-service';
import { TaskWorkspaces } from '../runtime/task-workspaces/task-workspaces';
import type { BackendConfig, BackendPorts, GithubPort } from './backend-ports';
import { createReplicas } from './backend-replicas';

/** What every service is built over. */
interface Base {
  uow: UnitOfWork;
  metrics: BackendMetrics;
  clock: () => Date;
  random?: () => number;
  /** A child logger per component. */
  component: (name: string) => Logger;
  /** The replica machinery (one process: claims granted at once, signals to itself, no sweeps). */
  replicas: Replicas;
}

/** A task's provider set pushed to its live sessions: the pusher, its retries, the refresh after a change. */
function providerRefresh(config: BackendConfig, base: Base, agentctls: Agentctls) {
  const { uow, clock, random, component, metrics } = base;
  const logger = component('refresh');
  const pusher = new ProviderPusher({ applyAgentGone, uow, clock, agentctls, logger, metrics });
  const policy = config.refreshRetry;
  const reconcilerLogger = component('reconciler');
  const { replicas } = base;
  const reconciler = new SessionReconciler({ uow, pusher, policy, logger: reconcilerLogger, random, replicas });
  const refresh = new ProviderRefreshService({ pusher, scheduler: reconciler, logger: component('refresh') });
  return { pusher, reconciler, refresh };
}

/** The GitLab MR lifecycle: each workspace's own token and base URL, never an ambient one. */
function mrLifecycle(config: BackendConfig, base: Base, ports: BackendPorts, prompts: PromptKicker) {
  const { uow, clock, random, component, metrics } = base;
  const gitlabHosts = { hosts: config.gitlabHosts, insecureHosts: config.gitlabInsecureHosts };
  const gitlab: WorkspaceGitlab = async (workspaceId) => {
    const credential = await uow.read.workspaceCredentials.findSecret(workspaceId, 'gitlab');
    if (credential === undefined) return undefined;
    // Checked again at each use: a row stored before the allow-list was narrowed is not called.
    const verdict: BaseUrlVerdict =
      credential.baseUrl === null ? { ok: true } : checkGitlabBaseUrl(credential.baseUrl, gitlabHosts);
    if (!verdict.ok)
      throw new GitlabError('forbidden', `the stored GitLab credential is not used: ${verdict.reason}`, null);
    return ports.gitlab.clientFor(credential);
  };
  const updates = new MrUpdates(component('mr-lifecycle'));
  const evaluator = new MrEvaluator({ uow, clock, logger: component('mr-lifecycle'), gitlab, prompts });
  updates.subscribe((event) => evaluator.handle(event));
  const policy = config.gitlabPoll;
  const logger = component('mr-poller');
  const poller = new MrPoller({
    uow,
    clock,
    logger,
    gitlab,
    updates,
    policy,
    random,
    metrics,
    replicas: base.replicas,
  });
  const github = ports.github ?? UNVERIFIED_GITHUB;
  const verifiers = {
    ...(ports.gitlab.verify === undefined ? {} : { gitlab: ports.gitlab.verify }),
    ...(github.verify === undefined ? {} : { github: github.verify }),
  };
  const credentials = new WorkspaceCredentialService({ uow, clock, verifiers, gitlabHosts });
  return { evaluator, poller, credentials, links: new ReviewLinkService({ uow, clock }) };
}

const UNVERIFIED_GITHUB: GithubPort = {
  clientFor: (credential) => githubClientFor(GITHUB_DEFAULT_API_URL, credential),
};

/** The GitHub PR lifecycle: each workspace's own token against the configured API. */
function prLifecycle(config: BackendConfig, base: Base, ports: BackendPorts, prompts: PromptKicker) {
  const { uow, clock, random, component, metrics } = base;
  const port = ports.github ?? UNVERIFIED_GITHUB;
  const github: WorkspaceGithub = async (workspaceId) => {
    const credential = await uow.read.workspaceCredentials.findSecret(workspaceId, 'github');
    return credential === undefined ? undefined : port.clientFor(credential);
  };
  const prEvaluator = new PrEvaluator({ uow, clock, logger: component('pr-lifecycle'), github, prompts });
  const policy = config.githubPoll ?? config.gitlabPoll;
  const logger = component('pr-poller');
  const { replicas } = base;
  const prPoller = new PrPoller({
    uow,
    clock,
    logger,
    github,
    evaluator: prEvaluator,
    policy,
    random,
    metrics,
    replicas,
  });
  return { prEvaluator, prPoller };
}

/** Every service over one database and the ports, each built once. */
export function createServices(config: BackendConfig, ports: BackendPorts) {
  const { clock, logger, random } = ports;
  // Claims, wake-ups (commits signal, holders re-read) and sweeps: one port, its version picked once.
  const replicas = createReplicas(config, ports);
  const notifier = eventWakeupsOver(replicas);
  const uow = createUnitOfWork(ports.db, ports.secrets, commitHooksOver(replicas));
  const eventConfig = config.events ?? EVENT_LOG_DEFAULTS;
  const eventLogger = logger.child({ component: 'events' });
  const metrics = ports.metrics ?? createBackendMetrics();
  const eventStreams = new EventStreams({
    events: uow.read.events,
    wakeups: notifier,
    pingMs: eventConfig.pingMs,
    maxStreams: eventConfig.maxStreams,
    onError: (err: unknown) => eventLogger.error({ err }, 'event stream failed'),
    onEnd: (how) => metrics.eventStreamEnded(how),
  });
  const eventPruner = new EventPruner({
    events: uow.read.events,
    retention: eventConfig.retention,
    extra: [
      {
        maxAgeMs: eventConfig.sessionDetailMaxAgeMs,
        prune: (cutoff) => pruneEndedSessionDetails(ports.db, cutoff),
      },
      { maxAgeMs: eventConfig.auditMaxAgeMs, prune: (cutoff) => pruneAudit(ports.db, cutoff) },
    ],
    intervalMs: eventConfig.pruneIntervalMs,
    clock,
    onError: (err: unknown) => eventLogger.error({ err }, 'event pruning failed'),
  });
  metrics.readFrom({
    sessionStates: AGENT_SESSION_STATES,
    executors: () => ports.agentctl.executors.names(),
    sessionCounts: () => uow.read.sessions.countByStateAndExecutor(),
    queuedPrompts: () => uow.read.promptQueue.countQueued(),
    eventLog: () => uow.read.events.extent(),
    openEventStreams: () => eventStreams.openCount,
    pendingQuestions: () => uow.read.questions.pendingSummary(clock().toISOString()),
    now: clock,
  });
  const base: Base = { uow, clock, random, metrics, replicas, component: (name) => logger.child({ component: name }) };
  const { component } = base;
  const agentctls = new Agentctls(ports.agentctl.executors, ports.agentctl.clients, {
    home: ports.localHome,
    publish: (name, payload) => replicas.publish(name, payload),
  });
  const { pusher, reconciler, refresh } = providerRefresh(config, base, agentctls);
  const repositories = new RepositoryService({ uow, clock, gitlabHosts: config.gitlabHosts });
  const followUpDelaysMs = [1, 4, 16].map((factor) => factor * config.agentctl.callTimeoutMs);
  const orphans = new OrphanSweeper({ uow, agentctls, logger: component('orphans'), followUpDelaysMs, replicas });
  // Prompt re-sends after an ambiguous failure follow the refresh retry schedule.
  const turns = createTurnRuntime({
    uow,
    clock,
    agentctls,
    refreshes: reconciler,
    promptRetry: config.refreshRetry,
    gate: ports.gate,
    logger,
    random,
    metrics,
    replicas,
  });
  const prompts = turns.drainer;
  const tasks = new TaskService({ uow, clock, pendingActions: pendingActionsOf, attention: attentionOf });
  const workspaces =
    config.workspaces === undefined
      ? undefined
      : new TaskWorkspaces({ uow, config: config.workspaces, logger: component('workspaces') });
  const sources = new WorkspaceSourceService({
    workspaces,
    uow,
    clock,
    repositories,
    refresh,
    tasks,
    logger: component('sources'),
  });
  const runtimeSessions = new AgentctlRuntimeSessions({ agentctls });
  const questions = new QuestionService({
    uow,
    clock,
    timeoutMs: config.questionTimeoutMs,
    logger: component('questions'),
    startTimer: ports.startTimer,
    prompts,
    replicas,
    metrics,
  });
  const permissionTimeoutMs = config.permissionTimeoutMs ?? 600_000;
  const permissionParents = new PermissionParentQuestions({
    uow,
    clock,
    timeoutMs: permissionTimeoutMs,
    logger: component('permissions'),
    startTimer: ports.startTimer ?? realTimer,
    prompts,
    replicas,
  });
  const permissionGrants = new PermissionGrants({ uow, clock, logger: component('permissions') });
  const permissions = new PermissionRequests({
    uow,
    questions,
    timeoutMs: permissionTimeoutMs,
    logger: component('permissions'),
    parent: permissionParents,
    grants: permissionGrants,
  });
  const sessions = new SessionService({
    workspaces,
    uow,
    clock,
    agentctls,
    refreshes: reconciler,
    orphans,
    lanes: turns.lanes,
    runtimeSessions,
    questions,
    recordArchived: async (stores, taskId, now) => {
      await tasks.recordEventWithin(stores, 'task.archived', taskId, now);
      await stores.permissionGrants.deleteForTask(taskId); // an archived task's grants allow nothing more
    },
    logger: component('sessions'),
    replicas,
    metrics,
  });
  const toolHandlers = createToolHandlers({
    uow,
    clock,
    logger: component('tools'),
    tasks,
    workspaceSources: sources,
    runtimeSessions,
    questions,
    prompts,
    parentAnswers: permissionParents,
  });
  return {
    uow,
    metrics,
    replicas,
    eventNotifier: notifier,
    eventStreams,
    eventPruner,
    agentctls,
    toolHandlers,
    repositories,
    tasks,
    sources,
    sessions,
    workspaces,
    prompts: new PromptService({ uow, clock, prompts, logger: component('prompts') }),
    questions,
    permissions,
    permissionGrants,
    pusher,
    refresh,
    reconciler,
    orphans,
    turns,
    ...mrLifecycle(config, base, ports, prompts),
    ...prLifecycle(config, base, ports, prompts),
  };
}

export type BackendServices = ReturnType<typeof createServices>;
