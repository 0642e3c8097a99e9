import type * as grpc from '@grpc/grpc-js';
import { status } from '@grpc/grpc-js';
import {
  agentctlChannel,
  type AgentCtlClient,
  controlTokenMetadata,
  isAppError,
  loadAgentctlProto,
  permissionDecisionToWire,
  type PermissionRequestInfo,
  permissionRequestFromWire,
  sessionEventFromWire,
  type WireAgentctlMessageOutput,
  type WireBackendMessage,
} from '@kandev/protocol';
import type { AgentctlEndpoint } from '../../runtime/agentctl/executor';
import type { Logger } from '../../platform/logger/logger';
import { retryDelayMs } from '../../platform/retry/retry-backoff';
import type { SessionEventSink } from '../../runtime/turns/session-event-handler';
import type { ToolCallChannel } from './tool-call-dispatcher';

/** Who decides agents' permission requests (policy ask): an option id, or null to reject. Never throws. */
export interface PermissionSink {
  decide(request: PermissionRequestInfo, signal: AbortSignal): Promise<string | null>;
}

/** Who runs the calls that arrive on the stream (the ToolCallDispatcher; a fake in tests). */
export interface ToolCallSink {
  dispatch(request: unknown, channel: ToolCallChannel): Promise<void>;
}

export interface AttachClientOptions {
  endpoint: AgentctlEndpoint;
  /** This backend process, sent in hello. */
  backendId: string;
  sink: ToolCallSink;
  /** Who applies the session events that arrive on the stream (turns, agent output, exits). */
  events: SessionEventSink;
  /** Absent: every permission request is rejected at once. */
  permissions?: PermissionSink;
  /** Re-open delays: doubling from baseMs up to maxDelayMs, with jitter. */
  backoff: { baseMs: number; maxDelayMs: number };
  logger: Logger;
  random?: () => number;
  /** Told each time agentctl accepts a (re-)opened stream, with its process id (a new one: it restarted). */
  onAttached?: (endpoint: AgentctlEndpoint, agentctlId: string) => void;
  /**
   * Told when an accepted stream ends, and when the first stream opened since start() ends before
   * agentctl accepted it (an adopted agentctl killed right after the backend started); not after stop().
   */
  onDetached?: (endpoint: AgentctlEndpoint) => void;
  /**
   * Several replicas: told, instead of re-opening, when agentctl ended the stream for a newer Attach
   * (another replica's). Re-opening would take it back; whoever holds the Attach lease decides instead.
   */
  onReplaced?: () => void;
}

// The channel's own reconnect backoff stays within ours (grpc-js defaults grow to two minutes).
const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  'grpc.initial_reconnect_backoff_ms': 200,
  'grpc.max_reconnect_backoff_ms': 5_000,
};

/**
 * Keeps one Attach stream open to one agentctl: hello with the control token, tool calls handed to the
 * sink on a channel whose signal aborts when the stream drops, session events handed (parsed, in
 * arrival order) to the event sink, and a re-open after every drop (backoff with jitter, reset once
 * agentctl accepts) until stop().
 */
export class AttachClient {
  private readonly client: AgentCtlClient;
  private stream: grpc.ClientDuplexStream<WireBackendMessage, WireAgentctlMessageOutput> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private attempt = 0;
  private stopped = false;
  private accepted = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: AttachClientOptions) {
    const AgentCtl = loadAgentctlProto().kandev.agentctl.v1.AgentCtl;
    const channel = agentctlChannel(options.endpoint.grpcAddress, options.endpoint.tls, CHANNEL_OPTIONS);
    this.client = new AgentCtl(options.endpoint.grpcAddress, channel.credentials, channel.options);
  }

  get endpoint(): AgentctlEndpoint {
    return this.options.endpoint;
  }

  /** True between agentctl's `accepted` and the stream's end. */
  get attached(): boolean {
    return this.accepted;
  }

  start(): void {
    if (this.stream === undefined && this.retry === undefined && !this.stopped) this.open();
  }

  /** Ends the stream (handlers see their signal abort), waits for running handlers, closes the channel. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.retry = undefined;
    this.stream?.cancel();
    await Promise.allSettled([...this.inFlight]);
    this.client.close();
  }

  private open(): void {
    const { endpoint, logger } = this.options;
    const stream = this.client.Attach(controlTokenMetadata(endpoint.controlToken));
    this.stream = stream;
    const controller = new AbortController();
    const channel: ToolCallChannel = {
      agentctlAddress: endpoint.grpcAddress,
      signal: controller.signal,
      send: (message) => {
        if (!controller.signal.aborted) stream.write(message);
      },
    };
    stream.on('data', (message: WireAgentctlMessageOutput) => this.receive(message, channel));
    let ended = false;
    const end = (reason: string, err?: unknown) => {
      if (ended) return;
      ended = true;
      controller.abort();
      this.stream = undefined;
      const wasAttached = this.accepted;
      this.accepted = false;
      if (this.stopped) return logger.info({ grpcAddress: endpoint.grpcAddress }, 'detached from agentctl');
      // The first open's failure counts too: otherwise an agentctl that died before answering the first
      // hello would never be reported, and an adopted one (no exit event) never restarted.
      if (wasAttached || this.attempt === 0) this.options.onDetached?.(endpoint);
      const { onReplaced } = this.options;
      if (onReplaced !== undefined && (err as grpc.ServiceError | undefined)?.code === status.FAILED_PRECONDITION) {
        logger.info({ reason, grpcAddress: endpoint.grpcAddress }, 'Attach stream replaced by a newer one');
        return onReplaced();
      }
      const delayMs = this.scheduleReopen();
      const level = wasAttached || this.attempt <= 1 ? 'warn' : 'debug';
      logger[level]({ err, reason, grpcAddress: endpoint.grpcAddress, delayMs }, 'Attach stream ended; re-opening');
    };
    stream.on('error', (err: grpc.ServiceError) => end(err.details || err.message, err));
    stream.on('end', () => end('agentctl ended the stream'));
    stream.on('close', () => end('the stream closed'));
    stream.write({ hello: { backend_id: this.options.backendId } });
  }

  private receive(message: WireAgentctlMessageOutput, channel: ToolCallChannel): void {
    if (message.kind === 'accepted') {
      this.accepted = true;
      this.attempt = 0;
      const agentctlId = message.accepted?.agentctl_id;
      this.options.logger.info({ grpcAddress: this.options.endpoint.grpcAddress, agentctlId }, 'attached to agentctl');
      this.options.onAttached?.(this.options.endpoint, agentctlId ?? '');
      return;
    }
    if (message.kind === 'tool_call' && message.tool_call) {
      this.track(this.options.sink.dispatch(message.tool_call, channel));
      return;
    }
    if (message.kind === 'permission_request' && message.permission_request) {
      this.track(this.decidePermission(message.permission_request, channel));
      return;
    }
    if (message.kind === 'session_event' && message.session_event) this.receiveEvent(message.session_event);
  }

  /** Answers on the stream the request came on (a dropped stream already made agentctl reject it). */
  private async decidePermission(
    wire: NonNullable<WireAgentctlMessageOutput['permission_request']>,
    channel: ToolCallChannel,
  ): Promise<void> {
    const request = permissionRequestFromWire(wire);
    const optionId = (await this.options.permissions?.decide(request, channel.signal)) ?? null;
    channel.send({ permission_decision: permissionDecisionToWire(request.requestId, optionId) });
  }

  private receiveEvent(wire: NonNullable<WireAgentctlMessageOutput['session_event']>): void {
    let event;
    try {
      event = sessionEventFromWire(wire);
    } catch (err) {
      const reason = isAppError(err) ? err.message : String(err);
      this.options.logger.warn({ reason, sessionId: wire.session_id }, 'malformed session event dropped');
      return;
    }
    this.track(this.options.events.handle(event, this.options.endpoint.grpcAddress));
  }

  private track(running: Promise<void>): void {
    this.inFlight.add(running);
    void running.finally(() => this.inFlight.delete(running));
  }

  private scheduleReopen(): number {
    const { baseMs, maxDelayMs } = this.options.backoff;
    const policy = { baseMs, maxDelayMs, maxAttempts: Number.POSITIVE_INFINITY };
    const delayMs = retryDelayMs(this.attempt, policy, this.options.random);
    this.attempt += 1;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.stopped) this.open();
    }, delayMs);
    this.retry.unref();
    return delayMs;
  }
}
