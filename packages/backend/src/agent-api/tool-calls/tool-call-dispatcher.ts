import { AppError, assertToolServed, isAppError, type WireBackendMessage } from '@kandev/protocol';
import type { Logger } from '../../platform/logger/logger';
import type { BackendMetrics } from '../../platform/metrics/backend-metrics';
import type { AgentSession } from '../../runtime/sessions/agent-session';
import { isLive } from '../../runtime/sessions/session-lifecycle';
import type { ToolCallContext, ToolHandler, ToolHandlers, ToolReply } from './tool-handler';
import { actingAs } from '../../platform/access/actor';
import {
  callIdOf,
  errorMessage,
  outputMessage,
  type ParsedToolCall,
  parseToolCall,
  progressMessage,
} from './tool-call-wire';

/**
 * What every admitted call goes through: the handler's own precheck (it explains more than "not
 * served"), then the catalogue's check over the session's stored launch config (discovery is not a
 * security boundary), then the handler. In-process test harnesses call tools through this too.
 */
export async function runAdmittedCall(
  handler: ToolHandler,
  context: ToolCallContext,
  args: unknown,
): Promise<ToolReply> {
  await handler.precheck?.(context);
  assertToolServed(context.toolName, context.session.launchConfig);
  return handler(context, args);
}

/** The Attach stream a call arrived on, as the dispatcher needs it. */
export interface ToolCallChannel {
  /** gRPC address of the agentctl this stream is open to (what session rows record). */
  readonly agentctlAddress: string;
  /** Aborted when the stream drops: handlers stop waiting, nothing more is sent. */
  readonly signal: AbortSignal;
  send(message: WireBackendMessage): void;
}

export interface ToolCallDispatcherDeps {
  findSession(sessionId: string): Promise<AgentSession | undefined>;
  handlers: ToolHandlers;
  /** Progress sent while a handler runs, so agentctl's inactivity timeout fires only for a dead backend. */
  heartbeatMs: number;
  logger: Logger;
  /** Counts calls by tool and outcome. */
  metrics?: Pick<BackendMetrics, 'toolCall'>;
}

/**
 * Runs the tool calls agentctl forwards. The backend accepts a call only for a session it launched on
 * that agentctl, that is live (starting, running or waiting for input), and whose task is the one the
 * request names; identity for the handler comes from the session row, never from the agent's arguments
 * (discovery is not a security boundary: every call is re-checked).
 */
export class ToolCallDispatcher {
  constructor(private readonly deps: ToolCallDispatcherDeps) {}

  /** Answers one request on its channel; never rejects (failures become ToolErrors and logs). */
  async dispatch(request: unknown, channel: ToolCallChannel): Promise<void> {
    const callId = callIdOf(request);
    if (callId === undefined) {
      this.deps.logger.warn('tool call without call_id dropped');
      return;
    }
    const started = Date.now();
    const log = this.deps.logger.child({ callId });
    const reply = (message: WireBackendMessage) => {
      if (channel.signal.aborted) return log.debug('channel gone; reply dropped');
      try {
        channel.send(message);
      } catch (err) {
        log.warn({ err }, 'could not send the tool call reply');
      }
    };
    let tool = '(unparsed)';
    try {
      const call = parseToolCall(request);
      tool = call.toolName;
      const { session, handler } = await this.admit(call, channel);
      const context = this.contextOf(call, session, channel, reply);
      // What the tool changes is recorded as this session's doing (the audit trail).
      const output = await actingAs({ kind: 'session', id: session.id }, () => this.run(context, handler, call.args));
      reply(outputMessage(callId, output));
      this.count(tool, 'ok', started);
      log.debug({ tool, sessionId: call.sessionId, ms: Date.now() - started }, 'tool call answered');
    } catch (err) {
      if (isAppError(err)) {
        log.info({ tool, code: err.code, reason: err.message }, 'tool call refused');
        reply(errorMessage(callId, err.code, err.message));
        this.count(tool, err.code, started);
        return;
      }
      log.error({ err, tool }, 'tool call failed');
      reply(errorMessage(callId, 'internal', `the backend failed to run ${tool}`));
      this.count(tool, 'internal', started);
    }
  }

  /** Only served tool names become label values (an agent's made-up names would grow the series). */
  private count(tool: string, outcome: string, started: number): void {
    const seconds = (Date.now() - started) / 1000;
    this.deps.metrics?.toolCall(Object.hasOwn(this.deps.handlers, tool) ? tool : '(unknown)', outcome, seconds);
  }

  /** The checks before any handler runs; a refusal is an AppError and nothing has been done. */
  private async admit(
    call: ParsedToolCall,
    channel: ToolCallChannel,
  ): Promise<{ session: AgentSession; handler: ToolHandler }> {
    const session = await this.deps.findSession(call.sessionId);
    if (session === undefined) throw new AppError('not_found', `session ${call.sessionId} does not exist`);
    if (session.agentctlAddress !== channel.agentctlAddress) {
      throw new AppError('permission_denied', `session ${call.sessionId} was not launched on this agentctl`);
    }
    if (session.taskId !== call.taskId || session.launchConfig.workspaceId !== call.workspaceId) {
      throw new AppError('permission_denied', `session ${call.sessionId} does not belong to task ${call.taskId}`);
    }
    if (!isLive(session.state)) {
      throw new AppError('failed_precondition', `session ${call.sessionId} is not live (${session.state})`);
    }
    const handler = Object.hasOwn(this.deps.handlers, call.toolName) ? this.deps.handlers[call.toolName] : undefined;
    if (handler === undefined) throw new AppError('not_found', `tool ${call.toolName} is not served`);
    return { session, handler };
  }

  private contextOf(
    call: ParsedToolCall,
    session: AgentSession,
    channel: ToolCallChannel,
    reply: (message: WireBackendMessage) => void,
  ): ToolCallContext {
    return {
      callId: call.callId,
      toolName: call.toolName,
      sessionId: session.id,
      taskId: session.taskId,
      workspaceId: session.launchConfig.workspaceId,
      session,
      reportProgress: (message) => reply(progressMessage(call.callId, message)),
      signal: channel.signal,
    };
  }

  private async run(context: ToolCallContext, handler: ToolHandler, args: unknown): Promise<ToolReply> {
    const heartbeat = setInterval(
      () => context.reportProgress(`the backend is still working on ${context.toolName}`),
      this.deps.heartbeatMs,
    );
    heartbeat.unref();
    try {
      return await runAdmittedCall(handler, context, args);
    } finally {
      clearInterval(heartbeat);
    }
  }
}
