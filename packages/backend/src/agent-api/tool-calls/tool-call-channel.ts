import { randomUUID } from 'node:crypto';
import type { AgentctlEndpoint } from '../../runtime/agentctl/executor';
import type { Logger } from '../../platform/logger/logger';
import type { SessionEventSink } from '../../runtime/turns/session-event-handler';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import { AttachClient, type PermissionSink } from './attach-client';
import { AttachSupervisor } from './attach-supervisor';
import type { ToolHandlers } from './tool-handler';
import { ToolCallDispatcher, type ToolCallDispatcherDeps } from './tool-call-dispatcher';

/** Re-open delays of a dropped Attach stream: from ~100 ms, doubling, at most 5 s (jittered). */
export const ATTACH_BACKOFF = { baseMs: 200, maxDelayMs: 5_000 } as const;

export interface ToolCallChannelDeps {
  uow: UnitOfWork;
  handlers: ToolHandlers;
  events: SessionEventSink;
  /** Decides permission requests; told when a session's agent exits so its held ones end. */
  permissions?: PermissionSink & { agentGone(sessionId: string): void };
  heartbeatMs: number;
  logger: Logger;
  metrics?: ToolCallDispatcherDeps['metrics'];
  /** Each stream agentctl accepts, and each accepted stream that ends (agentctl loss and repair). */
  onAttached?: (endpoint: AgentctlEndpoint, agentctlId: string) => void;
  onDetached?: (endpoint: AgentctlEndpoint) => void;
  /** Several replicas: a stream agentctl replaced with a newer Attach is not re-opened; this is told. */
  onReplaced?: () => void;
}

/**
 * The backend's end of the Attach channel: one dispatcher (session checks, handlers, heartbeats) and
 * the session event sink behind an Attach client for the executor's current agentctl. Feed it
 * endpoints with follow().
 */
export function createToolCallChannel(deps: ToolCallChannelDeps): AttachSupervisor {
  const dispatcher = new ToolCallDispatcher({
    findSession: (sessionId) => deps.uow.read.sessions.findById(sessionId),
    handlers: deps.handlers,
    heartbeatMs: deps.heartbeatMs,
    logger: deps.logger,
    metrics: deps.metrics,
  });
  const backendId = randomUUID();
  return new AttachSupervisor(
    (endpoint) =>
      new AttachClient({
        endpoint,
        backendId,
        sink: dispatcher,
        events: withAgentExits(deps.events, deps.permissions),
        permissions: deps.permissions,
        backoff: ATTACH_BACKOFF,
        logger: deps.logger,
        onAttached: deps.onAttached,
        onDetached: deps.onDetached,
        onReplaced: deps.onReplaced,
      }),
  );
}

/** An agent that exits ends its session's held permission requests (their questions close 'cancelled'). */
function withAgentExits(
  events: SessionEventSink,
  permissions: { agentGone(sessionId: string): void } | undefined,
): SessionEventSink {
  if (permissions === undefined) return events;
  return {
    handle(event, agentctlAddress) {
      if (event.kind === 'agent_exited') permissions.agentGone(event.sessionId);
      return events.handle(event, agentctlAddress);
    },
  };
}
