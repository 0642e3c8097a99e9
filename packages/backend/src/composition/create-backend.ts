import type { Router } from 'express';
import { AppError } from '@kandev/protocol';
import { createAgentProfileRoutes } from '../catalogue/agent-profiles/agent-profile-routes';
import { AgentProfileService } from '../catalogue/agent-profiles/agent-profile-service';
import { createApiTokenRoutes } from '../platform/auth/api-token-routes';
import { ApiTokenService, type AuthRecorder } from '../platform/auth/api-token-service';
import type { UnitOfWork } from '../platform/store/unit-of-work';
import { createConsoleLoginRoutes } from '../platform/auth/console-login';
import { LoginLinks } from '../platform/auth/login-links';
import { StreamCredentials } from '../platform/auth-guards/stream-credentials';
import { createRoutePolicy } from '../platform/access/route-policy';
import { ROUTE_RIGHTS } from './access/route-rights';
import { workspaceLookup } from './access/workspace-lookup';
import { createEventRoutes } from '../platform/events/event-routes';
import { createAuditRoutes } from '../platform/events/audit-routes';
import { createAgentctlRoutes } from '../runtime/executors/agentctl-routes';
import { AgentctlReachability, REACHABILITY_DEFAULTS } from '../runtime/agentctl/agentctl-reachability';
import { OwnedAttach } from '../runtime/agentctl/attach-ownership';
import { createReplicaRoutes } from '../platform/cluster/lease-routes';
import type { Sweeps } from '../platform/cluster/replicas';
import { AttachPool } from '../runtime/agentctl/attach-pool';
import type { AgentctlEndpoint } from '../runtime/agentctl/executor';
import { createOpenApiRoutes } from '../platform/openapi/openapi-route';
import { createMessageRoutes } from '../catalogue/messages/message-routes';
import { createTimelineRoutes } from '../runtime/timeline/timeline-routes';
import { createMrLifecycleRoutes } from '../integrations/gitlab/mr-lifecycle-routes';
import { createPrLifecycleRoutes } from '../integrations/github/pr-lifecycle-routes';
import { createPromptRoutes } from '../runtime/session-control/prompt-routes';
import { createProviderAutomationRoutes } from '../integrations/provider-automation/provider-automation-routes';
import { createParentQuestionRoutes } from '../runtime/parent-questions/parent-question-routes';
import { createPermissionGrantRoutes } from '../catalogue/permission-grants/grant-routes';
import { createQuestionRoutes } from '../runtime/questions/question-routes';
import { createRepositoryRoutes } from '../catalogue/repositories/repository-routes';
import { AgentctlLossHandler } from '../runtime/agentctl-repair/agentctl-loss';
import { AgentctlRepair } from '../runtime/agentctl-repair/agentctl-repair';
import { HOME_LEASE_PREFIX, ReplicaLocalSessions } from '../runtime/agentctl-repair/replica-local-sessions';
import { AgentctlRuntimeSessions } from '../runtime/session-control/runtime-session-control';
import { LeaseStore } from '../platform/cluster/lease-store';
import { isLive } from '../runtime/sessions/session-lifecycle';
import { createSessionRoutes } from '../runtime/session-control/session-routes';
import { runShutdown, type ShutdownStep } from './shutdown';
import { createTaskRoutes } from '../catalogue/tasks/task-routes';
import { createToolCallChannel } from '../agent-api/tool-calls/tool-call-channel';
import { createWorkspaceRoutes } from '../catalogue/workspaces/workspace-routes';
import { WorkspaceService } from '../catalogue/workspaces/workspace-service';
import { createWorkspaceSourceRoutes } from '../runtime/workspace-sources/workspace-source-routes';
import type { BackendConfig, BackendPorts } from './backend-ports';
import { openApiDocument } from './api-catalogue';
import { type BackendServices, createServices } from './backend-services';
import { checkReadiness } from './readiness';

/** Token and sign-in link changes appended to the event log, each in its own transaction. */
function recordIn(uow: UnitOfWork, clock: () => Date): AuthRecorder {
  return ({ type, data }) =>
    uow.transaction((stores) =>
      stores.events.append({ type, taskId: null, sessionId: null, data, at: clock().toISOString() }),
    );
}

function createRouters(
  s: BackendServices,
  ports: BackendPorts,
  tokens: ApiTokenService,
  reachability: AgentctlReachability,
): Router[] {
  const { uow } = s;
  const clock = ports.clock;
  return [
    createApiTokenRoutes(tokens),
    createConsoleLoginRoutes(tokens, new LoginLinks(ports.db, clock, recordIn(uow, clock))),
    createWorkspaceRoutes(new WorkspaceService({ uow, clock })),
    createRepositoryRoutes(s.repositories),
    createAgentProfileRoutes(new AgentProfileService({ uow, clock })),
    createTaskRoutes(s.tasks),
    createParentQuestionRoutes({ uow, clock }),
    createWorkspaceSourceRoutes(s.sources),
    createSessionRoutes(s.sessions),
    createPromptRoutes(s.prompts),
    createAgentctlRoutes(ports.agentctl.executors, (address) => reachability.isReachable(address)),
    createMessageRoutes(uow),
    createTimelineRoutes({ uow, clock }),
    createQuestionRoutes(s.questions),
    createPermissionGrantRoutes(s.permissionGrants),
    createProviderAutomationRoutes({ links: s.links, credentials: s.credentials }),
    createMrLifecycleRoutes({ uow, evaluator: s.evaluator, clock }),
    createPrLifecycleRoutes({ uow }),
    createOpenApiRoutes(openApiDocument()),
    createAuditRoutes(ports.db),
  ];
}

/**
 * What the executors announce: each agentctl up gets an Attach stream (tool calls and session events;
 * the local one, a remote, each session's container), one that went loses it, and a session whose
 * agentctl died fails.
 */
function followAgentctls(
  config: BackendConfig,
  s: BackendServices,
  ports: BackendPorts,
  booted: Promise<void>,
  reachability: AgentctlReachability,
) {
  const { uow, turns } = s;
  const logger = ports.logger;
  const { executors } = ports.agentctl;
  const repair = new AgentctlRepair({
    uow,
    clock: ports.clock,
    agentctls: s.agentctls,
    pusher: s.pusher,
    lanes: turns.lanes,
    logger: logger.child({ component: 'repair' }),
  });
  // After the boot reconcile, so a session is judged once at boot (the reconcile's rules) and by the
  // repair for every later (re)attach.
  const repairOn = (endpoint: AgentctlEndpoint) => {
    reachability.attached(endpoint);
    void booted
      .then(() => repair.repair(endpoint))
      .catch((err: unknown) => logger.error({ err, grpcAddress: endpoint.grpcAddress }, 'agentctl repair failed'));
  };
  const channel = (onReplaced?: () => void) =>
    createToolCallChannel({
      uow,
      handlers: s.toolHandlers,
      events: turns.events,
      permissions: s.permissions,
      heartbeatMs: config.toolCallHeartbeatMs,
      logger: logger.child({ component: 'attach' }),
      metrics: s.metrics,
      onAttached: repairOn,
      onDetached: (endpoint) => {
        reachability.detached(endpoint);
        executors.noticeDetached(endpoint);
      },
      onReplaced,
    });
  // Several replicas: an agentctl's stream is opened only by the replica holding its lease.
  // One process keeps every stream itself, at once: no lease, no renewal timer in the way.
  const { replicas } = s;
  const ownedLogger = logger.child({ component: 'attach-lease' });
  const owned = () =>
    new OwnedAttach({
      claims: replicas,
      timing: replicas.timing,
      clock: ports.clock,
      logger: ownedLogger,
      create: channel,
    });
  const attach = new AttachPool(replicas.shared ? owned : channel);
  const losses = new AgentctlLossHandler({ uow, clock: ports.clock, lanes: turns.lanes, logger });
  ports.agentctl.events.subscribe({
    up: (slot, endpoint) => {
      reachability.up(endpoint);
      attach.up(slot, endpoint);
    },
    down: (slot, endpoint) => {
      reachability.down(endpoint);
      attach.down(slot, endpoint);
    },
    lost: (session, reason) => void losses.handle(session, reason),
  });
  return attach;
}

/** Work for sessions on this replica's own local agentctl that other replicas hand over, and the sweep for a gone replica's. */
function replicaLocalSessions(s: BackendServices, ports: BackendPorts): ReplicaLocalSessions {
  const leases = new LeaseStore(ports.db);
  const runtime = new AgentctlRuntimeSessions({ agentctls: s.agentctls });
  const losses = new AgentctlLossHandler({
    uow: s.uow,
    clock: ports.clock,
    lanes: s.turns.lanes,
    logger: ports.logger,
  });
  return new ReplicaLocalSessions({
    uow: s.uow,
    logger: ports.logger.child({ component: 'replica-local-sessions' }),
    fail: (session, reason) => losses.handle(session, reason),
    home: ports.localHome,
    replicas: s.replicas,
    liveHomes: async () =>
      new Set(
        (await leases.listHeld(HOME_LEASE_PREFIX, ports.clock().getTime())).map((lease) =>
          lease.name.slice(HOME_LEASE_PREFIX.length),
        ),
      ),
    reconcile: (sessionId) => s.reconciler.reconcileSoon(sessionId),
    kick: (sessionId) => s.turns.drainer.kick(sessionId),
    stopRuntime: (session) => runtime.stop(session),
    catchUp: () => s.reconciler.sweep(),
  });
}

/**
 * The one composition root: every service over one database and the agentctl and GitLab ports, as
 * main.ts runs them and as the in-process tests use them (with fake ports). Nothing runs until
 * start() (boot: recover executors, reconcile sessions) and serve() (background work once serving).
 */
export function createBackend(config: BackendConfig, ports: BackendPorts) {
  const services = createServices(config, ports);
  const { uow, questions, turns, reconciler, orphans, poller, prPoller, eventPruner, eventStreams } = services;
  const { logger } = ports;
  const { executors } = ports.agentctl;
  let markBooted: () => void = () => undefined;
  const booted = new Promise<void>((resolve) => (markBooted = resolve));
  const reachability = new AgentctlReachability({
    ...REACHABILITY_DEFAULTS,
    logger: logger.child({ component: 'reachability' }),
  });
  const attach = followAgentctls(config, services, ports, booted, reachability);
  const localSessions = replicaLocalSessions(services, ports);
  const tokens = new ApiTokenService({
    ...{ db: ports.db, clock: ports.clock, logger, configured: config.apiToken },
    replicasShareTheDatabase: services.replicas.shared,
    signals: services.replicas,
    workspaceExists: async (id) => (await ports.db('workspaces').select('id').where({ id }).first()) !== undefined,
    record: recordIn(uow, ports.clock),
  });
  // Every open GET /api/events stream ends once the token that opened it is revoked, on any replica.
  const streamCredentials = new StreamCredentials({
    isActive: (token) => tokens.isActive(token),
    signals: services.replicas,
    onError: (err: unknown) => logger.error({ err }, 'event stream token re-check failed'),
  });
  // Expired leases of replicas that died, deleted by the running ones (none in one process).
  let leaseSweeps: Sweeps | undefined;
  const policy = createRoutePolicy(ROUTE_RIGHTS, workspaceLookup(ports.db));
  // Reverse start order; all before the executors stop and the database closes.
  const stopSteps: ShutdownStep[] = [
    {
      name: 'event streams',
      run: () => {
        streamCredentials.stop();
        eventStreams.closeAll();
      },
    },
    { name: 'provider pushes', run: () => services.refresh.settle() }, // answered while agentctl is reachable
    { name: 'event pruner', run: () => eventPruner.stop() },
    { name: 'mr poller', run: () => poller.stop() },
    { name: 'pr poller', run: () => prPoller.stop() },
    { name: 'attach', run: () => attach.stop() },
    { name: 'reachability', run: () => reachability.stop() },
    { name: 'turns', run: () => turns.stop() }, // after attach: its events finish first
    { name: 'orphan sweeper', run: () => orphans.stop() },
    { name: 'replica-local sessions', run: () => localSessions.stop() },
    { name: 'reconciler', run: () => reconciler.stop() },
    { name: 'expired leases', run: () => leaseSweeps?.stop() },
    { name: 'leases', run: () => services.replicas.releaseAll() }, // after all that claims
    { name: 'replica signals', run: () => services.replicas.close() },
  ];

  return {
    ...services,
    routers: [
      ...createRouters(services, ports, tokens, reachability),
      createEventRoutes(services.eventStreams, streamCredentials),
      createReplicaRoutes({
        db: ports.db,
        replicaId: services.replicas.replicaId,
        shared: services.replicas.shared,
        clock: ports.clock,
        attachedAddresses: () => attach.addresses(),
      }),
    ],
    /** GET /readyz: the database takes a write and every configured executor's agentctl answers. */
    readiness: () => checkReadiness(ports.db, executors, (address) => reachability.isReachable(address)),
    /** Operator API tokens; main.ts guards /api with createAuthMiddleware(tokens). */
    tokens,
    /** Each route's right and workspace (composition/access/route-rights.ts), after the token check. */
    policy,

    /**
     * Boot, before serving: questions left pending by an earlier process expire; each executor finds
     * what an earlier backend left (the local agentctl adopted or started, containers reattached or
     * removed, remotes announced); then sessions are reconciled with agentctl (lost ones fail, turns
     * settle or are sent again, idle queues drain). Throws when the default executor cannot recover.
     */
    async start(): Promise<void> {
      // Listening before anything is held, so no other replica's answer can pass unheard.
      await services.replicas.ready();
      await localSessions.claimHome(); // before any session can be placed on this backend's agentctl
      const expired = await questions.expireStale();
      if (expired > 0) logger.info({ expired }, 'stale questions expired');
      const failures = await executors.recover(async (id) => {
        const session = await uow.read.sessions.findById(id);
        return session !== undefined && isLive(session.state);
      });
      // An executor that cannot recover is logged; its sessions fail at reconcile.
      for (const [executor, err] of failures) logger.error({ err, executor }, 'executor recovery failed');
      const defaultFailure = failures.get(executors.defaultExecutor);
      // As before executors were pluggable: no default agentctl, no backend.
      if (defaultFailure !== undefined) throw defaultFailure;
      // Never fatal: a failure is logged.
      await turns.boot.run().catch((err: unknown) => logger.error({ err }, 'boot reconcile failed'));
      markBooted();
    },

    /** Background work once serving: the repair sweeps, then the MR and PR pollers. */
    serve(): void {
      // Sessions left behind by a failed refresh (or by a backend that stopped before repairing them).
      reconciler.sweep().catch((err: unknown) => logger.error({ err }, 'boot reconcile sweep failed'));
      // Runtime sessions an adopted agentctl holds for sessions this backend recorded as ended.
      orphans.sweep().catch((err: unknown) => logger.error({ err }, 'boot orphan sweep failed'));
      // After boot, so a poll's prompts find the recovered sessions.
      poller.start();
      prPoller.start();
      turns.sweeper.start();
      localSessions.start();
      turns.startSweeper.start();
      leaseSweeps = services.replicas.sweepLeftovers(() => services.replicas.deleteExpired());
      eventPruner.start();
    },

    /** Stops the background work and the Attach streams; the ports (executors, database) are the caller's. */
    async stop(): Promise<void> {
      if ((await runShutdown(logger, stopSteps)) !== 0) {
        throw new AppError('internal', 'a backend service did not stop cleanly (logged)');
      }
    },
  };
}

export type Backend = ReturnType<typeof createBackend>;
