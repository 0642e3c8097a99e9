import { randomUUID } from 'node:crypto';
import {
  AppError,
  permissionDecisionOptionId,
  type PermissionRequestInfo,
  permissionRequestToWire,
  type SessionEvent,
  type SessionEventBody,
  sessionEventToWire,
  type WireAgentctlMessage,
  type WireBackendMessageOutput,
} from '@kandev/protocol';
import type { PermissionAsker } from '../agents/permission-responder';
import type { Logger } from '../logger';
import { NoBackendForwarder } from '../mcp/no-backend-forwarder';
import type { ForwardOptions, ToolCall, ToolCallForwarder, ToolCallResult } from '../mcp/tool-call-forwarder';
import { EventOutbox } from './event-outbox';
import type { AgentctlMetrics } from '../metrics/agentctl-metrics';
import { PendingCalls } from './pending-calls';
import { PendingPermissions } from './pending-permissions';
import { channelLostResult, toolCallToWire, toolResultFromWire } from './tool-call-wire';

/** One Attach stream, as the hub sees it (the gRPC adapter implements it; tests use a fake). */
export interface BackendLink {
  /** Local id of the stream, for logs and to tell whose answer is whose. */
  readonly id: string;
  /** Throws when the stream can no longer be written. */
  send(message: WireAgentctlMessage): void;
  /** Ends the stream from agentctl's side with a status the backend can read. */
  end(reason: AppError): void;
}

export interface AttachHubDeps {
  /** Inactivity timeout of each forwarded call (KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** agentctl's safety timeout of a forwarded permission request (longer than the backend's). */
  readonly permissionTimeoutMs: number;
  readonly log: Logger;
  /** Sent in `accepted`, so a backend can tell agentctl restarts apart. */
  readonly agentctlId?: string;
  readonly newCallId?: () => string;
  /** Session events kept while no backend is attached (default EVENT_OUTBOX_CAPACITY). */
  readonly outboxCapacity?: number;
  readonly now?: () => Date;
  /** Counts and times each forwarded call by how it settled. */
  readonly metrics?: Pick<AgentctlMetrics, 'forwardedCallSettled'>;
}

interface Attached {
  readonly link: BackendLink;
  readonly backendId: string;
}

/**
 * The backend channel: at most one attached Attach stream (the latest hello wins; the older stream is
 * ended and its in-flight calls fail at once). Tool calls go out on it and wait for their result under
 * an inactivity timeout; without an attached backend they fail fast and change nothing. Session events
 * go out on it in order; while no backend is attached they wait in a bounded outbox and are flushed,
 * in order, right after the next `accepted`.
 */
export class AttachHub implements ToolCallForwarder, PermissionAsker {
  readonly agentctlId: string;
  private readonly pending: PendingCalls;
  /** When each pending call was forwarded (the metrics); removed when it settles. */
  private readonly forwardedAt = new Map<string, bigint>();
  private readonly permissions: PendingPermissions;
  private readonly noBackend = new NoBackendForwarder();
  private readonly open = new Set<BackendLink>();
  private current: Attached | undefined;
  private readonly newCallId: () => string;
  private readonly outbox: EventOutbox;
  private readonly now: () => Date;
  private seq = 0;
  /** Events dropped from the outbox since it was last flushed. */
  private dropped = 0;

  constructor(private readonly deps: AttachHubDeps) {
    this.agentctlId = deps.agentctlId ?? randomUUID();
    this.newCallId = deps.newCallId ?? randomUUID;
    this.outbox = new EventOutbox(deps.outboxCapacity);
    this.now = deps.now ?? (() => new Date());
    this.pending = new PendingCalls(deps.timeoutMs, (callId, how) => {
      const since = this.forwardedAt.get(callId);
      this.forwardedAt.delete(callId);
      if (since !== undefined) deps.metrics?.forwardedCallSettled(how, since);
      deps.log.debug({ callId, how }, 'tool call settled');
    });
    this.permissions = new PendingPermissions(deps.permissionTimeoutMs, (requestId, how) =>
      deps.log.info({ requestId, how }, 'permission request settled'),
    );
  }

  /** True while a backend has said hello on a stream that is still open. */
  get attached(): boolean {
    return this.current !== undefined;
  }

  get inFlight(): number {
    return this.pending.size;
  }

  /** Events waiting for a backend. */
  get queuedEvents(): number {
    return this.outbox.size;
  }

  /** A session event: numbered (increasing per agentctl process), then sent or kept for the next backend. */
  publish(sessionId: string, body: SessionEventBody): void {
    this.seq += 1;
    const event: SessionEvent = { ...body, sessionId, seq: this.seq, occurredAt: this.now().toISOString() };
    const attached = this.current;
    // Behind queued events a new one waits its turn, so a session's events never overtake each other.
    if (attached !== undefined && this.outbox.size === 0 && this.sendEvent(attached.link, event)) return;
    this.keep(event);
  }

  /** An authenticated stream opened; it becomes the backend's channel with its hello. */
  opened(link: BackendLink): void {
    this.open.add(link);
  }

  /** One message from a stream. Protocol violations end that stream with INVALID_ARGUMENT. */
  receive(link: BackendLink, message: WireBackendMessageOutput): void {
    if (!this.open.has(link)) return;
    switch (message.kind) {
      case 'hello':
        return this.hello(link, message.hello?.backend_id ?? '');
      case 'tool_result':
        if (!message.tool_result || !this.isCurrent(link)) return this.violation(link, 'tool_result before hello');
        return this.result(link, message.tool_result);
      case 'tool_progress':
        if (!message.tool_progress || !this.isCurrent(link)) return this.violation(link, 'tool_progress before hello');
        this.pending.progress(message.tool_progress.call_id, link.id, message.tool_progress.message);
        return;
      case 'permission_decision': {
        const decision = message.permission_decision;
        if (!decision || !this.isCurrent(link)) return this.violation(link, 'permission_decision before hello');
        this.permissions.settle(decision.request_id, link.id, permissionDecisionOptionId(decision.option_id));
        return;
      }
      case undefined:
        return this.violation(link, 'empty BackendMessage');
    }
  }

  /** A stream ended, dropped or errored (idempotent). If it was attached, its in-flight calls fail now. */
  closed(link: BackendLink, reason: string): void {
    if (!this.open.delete(link)) return;
    if (!this.isCurrent(link)) return;
    const backendId = this.current?.backendId;
    this.current = undefined;
    const failed = this.pending.failLink(link.id, channelLostResult);
    const rejected = this.permissions.failLink(link.id);
    this.deps.log.info(
      { linkId: link.id, backendId, reason, failedCalls: failed, rejectedPermissions: rejected },
      'backend detached',
    );
  }

  /** Shutdown: end every stream (so the gRPC server can stop) and fail what is in flight. */
  close(): void {
    for (const link of [...this.open]) {
      link.end(new AppError('unavailable', 'agentctl is shutting down'));
      this.closed(link, 'agentctl shutting down');
    }
  }

  async forward(call: ToolCall, options: ForwardOptions = {}): Promise<ToolCallResult> {
    const attached = this.current;
    if (attached === undefined) return this.noBackend.forward(call);
    const callId = this.newCallId();
    this.forwardedAt.set(callId, process.hrtime.bigint());
    const result = this.pending.start({ callId, linkId: attached.link.id, tool: call.tool, ...options });
    if (this.pending.has(callId)) {
      try {
        attached.link.send({ tool_call: toolCallToWire(callId, call) });
        this.deps.log.debug({ callId, tool: call.tool, sessionId: call.sessionId }, 'tool call forwarded');
      } catch (err) {
        this.deps.log.warn({ err, callId }, 'could not write to the attached backend');
        this.pending.settle(callId, attached.link.id, channelLostResult(call.tool));
      }
    }
    return result;
  }

  /** Forwards a permission request (policy ask); null at once without a backend. See PendingPermissions. */
  ask(request: PermissionRequestInfo, signal: AbortSignal): Promise<string | null> {
    const attached = this.current;
    if (attached === undefined) return Promise.resolve(null);
    const answer = this.permissions.start(request.requestId, attached.link.id, signal);
    if (this.permissions.has(request.requestId)) {
      try {
        attached.link.send({ permission_request: permissionRequestToWire(request) });
      } catch (err) {
        this.deps.log.warn({ err, requestId: request.requestId }, 'could not write to the attached backend');
        this.permissions.fail(request.requestId);
      }
    }
    return answer;
  }

  private isCurrent(link: BackendLink): boolean {
    return this.current?.link === link;
  }

  private hello(link: BackendLink, backendId: string): void {
    if (backendId.length === 0) return this.violation(link, 'hello without backend_id');
    const previous = this.current;
    if (previous?.link !== link) {
      this.current = { link, backendId };
      if (previous !== undefined) this.replace(previous, backendId);
    }
    try {
      link.send({ accepted: { agentctl_id: this.agentctlId } });
    } catch (err) {
      this.deps.log.warn({ err, linkId: link.id }, 'could not answer hello');
      return this.closed(link, 'write failed');
    }
    this.deps.log.info({ linkId: link.id, backendId, replaced: previous?.backendId }, 'backend attached');
    this.flush(link);
  }

  /** Sends what waited in the outbox, oldest first; stops (keeping the rest) if the stream fails. */
  private flush(link: BackendLink): void {
    const waiting = this.outbox.size;
    if (waiting === 0) return;
    for (let event = this.outbox.peek(); event !== undefined; event = this.outbox.peek()) {
      if (!this.sendEvent(link, event)) return;
      this.outbox.shift();
    }
    this.deps.log.info({ linkId: link.id, events: waiting, droppedBefore: this.dropped }, 'queued session events sent');
    this.dropped = 0;
  }

  /** False (and the stream treated as gone) when the stream cannot be written. */
  private sendEvent(link: BackendLink, event: SessionEvent): boolean {
    try {
      link.send({ session_event: sessionEventToWire(event) });
      return true;
    } catch (err) {
      this.deps.log.warn({ err, linkId: link.id, seq: event.seq }, 'could not send a session event');
      this.closed(link, 'write failed');
      return false;
    }
  }

  private keep(event: SessionEvent): void {
    const dropped = this.outbox.push(event);
    if (dropped === undefined) return;
    this.dropped += 1;
    // One warning per burst (then every 1000th), not one per event.
    if (this.dropped === 1 || this.dropped % 1000 === 0) {
      this.deps.log.warn(
        { dropped: this.dropped, oldestKeptSeq: this.outbox.peek()?.seq, sessionId: dropped.sessionId },
        'no backend attached and the event outbox is full; dropping the oldest session events',
      );
    }
  }

  private replace(previous: Attached, backendId: string): void {
    this.open.delete(previous.link);
    const failed = this.pending.failLink(previous.link.id, channelLostResult);
    this.permissions.failLink(previous.link.id);
    previous.link.end(new AppError('failed_precondition', 'a newer Attach replaced this stream'));
    this.deps.log.info(
      { linkId: previous.link.id, backendId: previous.backendId, by: backendId, failedCalls: failed },
      'backend detached: replaced by a newer Attach',
    );
  }

  private result(link: BackendLink, wire: NonNullable<WireBackendMessageOutput['tool_result']>): void {
    // The tool name is only for the agent-facing text; an unknown call id settles nothing.
    const settled = this.pending.settle(wire.call_id, link.id, toolResultFromWire(wire, this.toolOf(wire.call_id)));
    if (!settled) this.deps.log.debug({ callId: wire.call_id }, 'result for a call nobody waits for');
  }

  private toolOf(callId: string): string {
    return this.pending.toolOf(callId) ?? 'the tool';
  }

  private violation(link: BackendLink, what: string): void {
    this.deps.log.warn({ linkId: link.id, what }, 'Attach protocol violation; ending the stream');
    link.end(new AppError('invalid_argument', `Attach protocol: ${what}`));
    this.closed(link, what);
  }
}
