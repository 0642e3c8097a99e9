import { randomUUID } from 'node:crypto';
import {
  AGENT_NOTICE_LEVEL,
  type AgentRuntimeState,
  type AgentStatus,
  AppError,
  type TurnRecord,
} from '@kandev/protocol';
import {
  AcpConnectionClosedError,
  type AcpConnection,
  type AgentPermissionRequest,
  type AgentUpdate,
  type McpServerSpec,
} from './acp-connection';
import { type AgentExit, describeError } from './agent-exit';
import type { HandshakeNotice } from './agent-handshake';
import { handlePermission, type PermissionFlowDeps } from './agent-permissions';
import type { AgentProcess } from './agent-process';
import { type AgentToolView, NO_TOOL_VIEW } from './agent-tool-view';
import { type OpenSession, openAgentSession } from './agent-start';
import { prepareTurnText, toolsChangedFor } from './agent-turn-start';
import {
  type AgentLaunchSpec,
  type AgentRunnerDeps,
  DEFAULT_MCP_CONNECT_TIMEOUT_MS,
  DEFAULT_TOOLS_REFRESH_GRACE_MS,
  NO_KANDEV_TOOLS_WARNING,
} from './agent-launch-spec';
import type { PermissionDecision } from './permission-policy';
import { NO_PERMISSION_ASKER } from './permission-responder';
import type { PromptLedger } from './prompt-ledger';
import type { SessionAgent } from './session-agent';
import { withPreamble } from './system-prompt-delivery';
import { TurnOutput, type TurnOutputEvent } from './turn-output';
import { withTimeout } from './with-timeout';

/** Turns of one agent process shown in its state (the session's ledger remembers more). */
export const TURNS_SHOWN = 100;

interface ActiveTurn {
  readonly record: TurnRecord;
  readonly text: string;
  /**
   * queued: behind the handshake; preparing: turn_started published, the turn boundary's work runs
   * (tools, preamble); sent: session/prompt is out.
   */
  stage: 'queued' | 'preparing' | 'sent';
  cancelRequested: boolean;
  readonly output: TurnOutput;
  /** Aborted by cancel: permission requests of this turn are answered cancelled. */
  readonly cancel: AbortController;
}

type TurnOutcome = Pick<TurnRecord, 'status' | 'stopReason' | 'error'>;

/**
 * One agent process of a session: starting -> ready <-> prompting -> exited. One turn at a time; a
 * prompt accepted while starting is delivered right after the handshake. Output and lifecycle go out
 * as session events: agent_started, then per turn turn_started, agent_message / tool_call / plan,
 * turn_ended, and agent_exited last; agent_notice when something keeps the agent from working as its
 * profile promises. A prompt that never reached the agent (cancelled while queued, or the agent never
 * came up) gets only its turn_ended.
 */
export class AgentRunner implements SessionAgent {
  private readonly spec: Omit<AgentLaunchSpec, 'mcpServer'>;
  private status: AgentStatus = 'starting';
  private process: AgentProcess | undefined;
  private connection: AcpConnection | undefined;
  private session: OpenSession | undefined;
  private exitReason: string | null = null;
  private turn: ActiveTurn | undefined;
  private readonly turnIds: string[] = [];
  private stopRequested = false;
  /** Why agentctl ended an agent that misbehaved (failed handshake, closed stdio); the exit reason. */
  private failure: string | undefined;
  /**
   * Carries the plaintext MCP token into the handshake; afterwards only the open session's setup holds
   * it (to reopen the ACP session). Never logged, never in state.
   */
  private mcpServer: McpServerSpec | null;
  /** Aborted once the agent stops or exits: permission requests still waiting reject. */
  private readonly lifetime = new AbortController();
  private readonly tools: AgentToolView;
  private readonly permissionFlow: PermissionFlowDeps;
  /** Set when a batch of updates arrived: their text goes out once the batch is read. */
  private flushScheduled = false;
  private finish: () => void = () => undefined;
  private readonly finished = new Promise<void>((resolve) => (this.finish = resolve));

  constructor(
    spec: AgentLaunchSpec,
    private readonly ledger: PromptLedger,
    private readonly deps: AgentRunnerDeps,
  ) {
    const { mcpServer, ...rest } = spec;
    this.spec = rest;
    this.mcpServer = mcpServer;
    this.tools = mcpServer === null ? NO_TOOL_VIEW : (deps.tools ?? NO_TOOL_VIEW);
    this.permissionFlow = {
      sessionId: spec.sessionId,
      taskId: spec.taskId,
      policy: spec.permissionPolicy,
      asker: deps.permissions ?? NO_PERMISSION_ASKER,
      log: deps.log,
      newRequestId: randomUUID,
      mcpServerName: mcpServer?.name ?? null,
      toolNames: () => this.tools.toolNames(),
      publish: (events) => this.publishAll(events),
    };
  }

  start(): void {
    if (this.process !== undefined || this.stopRequested) return;
    const listingMark = this.tools.listingCount();
    const proc = this.deps.spawn(this.spec.process);
    this.process = proc;
    void proc.exited.then((exit) => this.onExit(exit));
    if (proc.stdio === null) return;
    this.deps.log.info({ pid: proc.pid, command: this.spec.process.command }, 'agent spawned');
    const connection = this.deps.connect(proc.stdio, {
      onUpdate: (id, update) => this.onUpdate(id, update),
      onPermission: (_acpSessionId, request, withdrawn) => this.onPermission(request, withdrawn),
    });
    this.connection = connection;
    void connection.closed.then(() => this.onConnectionClosed(proc));
    void this.handshake(connection, proc, listingMark);
  }

  prompt(promptId: string, text: string): TurnRecord {
    const sessionId = this.spec.sessionId;
    if (this.stopRequested || this.status === 'exited') {
      const why = this.exitReason === null ? 'is stopping' : `has exited (${this.exitReason})`;
      throw new AppError('failed_precondition', `the agent of session ${sessionId} ${why}; resume the session first`);
    }
    if (this.turn !== undefined) {
      throw new AppError(
        'failed_precondition',
        `prompt ${this.turn.record.promptId} is still running on session ${sessionId}; wait for its turn to end or cancel it`,
        { currentPromptId: this.turn.record.promptId },
      );
    }
    const record: TurnRecord = {
      promptId,
      status: 'running',
      stopReason: null,
      error: null,
      startedAt: this.deps.now().toISOString(),
      endedAt: null,
    };
    this.ledger.put(record);
    this.turnIds.push(promptId);
    if (this.turnIds.length > TURNS_SHOWN) this.turnIds.shift();
    const output = new TurnOutput(promptId);
    this.turn = { record, text, stage: 'queued', cancelRequested: false, output, cancel: new AbortController() };
    if (this.status === 'ready') this.deliver(this.turn);
    return record;
  }

  cancel(): { cancelled: boolean; promptId: string | null } {
    const turn = this.turn;
    if (turn === undefined) return { cancelled: false, promptId: null };
    const promptId = turn.record.promptId;
    turn.cancel.abort();
    if (turn.stage === 'queued') {
      this.endTurn(turn, { status: 'completed', stopReason: 'cancelled', error: null });
      return { cancelled: true, promptId };
    }
    // While preparing, the turn ends as cancelled once the boundary's work is done (nothing is sent).
    const session = this.session;
    if (turn.stage === 'sent' && !turn.cancelRequested && session !== undefined) {
      session.connection
        .cancel(session.acpSessionId)
        .catch((err: unknown) => this.deps.log.warn({ err, promptId }, 'cancel not sent'));
    }
    turn.cancelRequested = true;
    return { cancelled: true, promptId };
  }

  async stop(): Promise<void> {
    if (!this.stopRequested) {
      this.stopRequested = true;
      this.lifetime.abort();
      if (this.process === undefined) this.endUnstarted();
      else if (this.status !== 'exited') void this.process.stop(this.deps.stopGraceMs);
    }
    await this.finished;
  }

  kill(): void {
    this.process?.kill();
  }

  state(): AgentRuntimeState {
    const handshake = this.session?.handshake;
    return {
      status: this.status,
      pid: this.process?.pid ?? null,
      acpSessionId: this.session?.acpSessionId ?? null,
      loaded: handshake?.loaded ?? false,
      currentPromptId: this.turn?.record.promptId ?? null,
      exitReason: this.exitReason,
      turns: this.turnIds.flatMap((id) => this.ledger.get(id) ?? []),
      modeId: handshake?.modeId ?? null,
      systemPromptDelivery: handshake?.systemPromptDelivery ?? 'none',
      mcpConnected: this.session?.mcpListed ?? false,
    };
  }

  private async handshake(connection: AcpConnection, proc: AgentProcess, listingMark: number): Promise<void> {
    const request = {
      cwd: this.spec.process.cwd,
      mcpServers: this.mcpServer === null ? [] : [this.mcpServer],
      systemPrompt: this.spec.systemPrompt,
      resumeAcpSessionId: this.spec.resumeAcpSessionId,
      permissionPolicy: this.spec.permissionPolicy,
    };
    this.mcpServer = null;
    try {
      const { session, notices } = await openAgentSession(connection, proc, request, listingMark, {
        log: this.deps.log,
        startTimeoutMs: this.deps.startTimeoutMs,
        tools: this.tools,
        mcpConnectTimeoutMs: this.deps.mcpConnectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS,
      });
      if (this.stopRequested || this.status === 'exited') return;
      this.session = session;
      this.status = 'ready';
      const { acpSessionId, loaded, modeId, systemPromptDelivery } = session.handshake;
      const mcpConnected = session.mcpListed;
      this.deps.log.info(
        { pid: proc.pid, acpSessionId, loaded, modeId, systemPromptDelivery, mcpConnected },
        'agent ready',
      );
      for (const notice of notices) this.notice(notice);
      const pid = proc.pid ?? 0;
      this.deps.publish({
        kind: 'agent_started',
        pid,
        acpSessionId,
        loaded,
        modeId,
        systemPromptDelivery,
        mcpConnected,
      });
      if (this.turn !== undefined) this.deliver(this.turn);
    } catch (err) {
      // A closed connection means the process is ending: its exit (code or signal) is the better reason.
      if (this.stopRequested || this.status === 'exited' || err instanceof AcpConnectionClosedError) return;
      this.endAgent(proc, `handshake failed: ${describeError(err)}`);
    }
  }

  private notice(notice: HandshakeNotice): void {
    const level = AGENT_NOTICE_LEVEL[notice.code];
    this.deps.log.warn({ code: notice.code, level }, notice.message);
    this.deps.publish({ kind: 'agent_notice', code: notice.code, level, message: notice.message });
  }

  private deliver(turn: ActiveTurn): void {
    const session = this.session;
    if (session === undefined) return;
    turn.stage = 'preparing';
    this.status = 'prompting';
    this.deps.publish({ kind: 'turn_started', promptId: turn.record.promptId });
    if (toolsChangedFor(session, this.tools)) void this.prepareAndSend(turn, session);
    else this.send(turn, session, turn.text);
  }

  /** The tools changed since the agent last listed them: the boundary's work first, then the prompt. */
  private async prepareAndSend(turn: ActiveTurn, session: OpenSession): Promise<void> {
    let text: string;
    try {
      const prepared = await prepareTurnText(session, turn.text, {
        policy: this.spec.permissionPolicy,
        tools: this.tools,
        graceMs: this.deps.toolsRefreshGraceMs ?? DEFAULT_TOOLS_REFRESH_GRACE_MS,
        log: this.deps.log,
      });
      if (prepared.notice !== null) this.notice(prepared.notice);
      text = prepared.text;
    } catch (err) {
      if (err instanceof AcpConnectionClosedError || this.status === 'exited') return;
      // The ACP session may be closed now: the agent cannot go on without a resume.
      this.endAgent(session.proc, `could not reopen its ACP session for changed tools: ${describeError(err)}`);
      return;
    }
    if (this.turn !== turn) return;
    if (turn.cancelRequested) {
      this.endTurn(turn, { status: 'completed', stopReason: 'cancelled', error: null });
      return;
    }
    this.send(turn, session, text);
  }

  private send(turn: ActiveTurn, session: OpenSession, text: string): void {
    const prompt = session.preamblePending ? withPreamble(this.spec.systemPrompt, text) : text;
    session.preamblePending = false;
    turn.stage = 'sent';
    session.connection.prompt(session.acpSessionId, prompt).then(
      ({ stopReason }) => this.endTurn(turn, { status: 'completed', stopReason, error: this.turnWarning(session) }),
      (err: unknown) => {
        // The agent is going away: the exit handler ends the turn with the exit reason.
        if (err instanceof AcpConnectionClosedError) return;
        this.endTurn(turn, { status: 'failed', stopReason: null, error: describeError(err) });
      },
    );
  }

  /** A completed turn of an agent that still never listed its MCP tools says so. */
  private turnWarning(session: OpenSession): string | null {
    if (session.handshake.setup.mcpServers.length === 0) return null;
    session.mcpListed ||= this.tools.listingCount() > session.listingMark;
    return session.mcpListed ? null : NO_KANDEV_TOOLS_WARNING;
  }

  private endTurn(turn: ActiveTurn, outcome: TurnOutcome): void {
    if (this.turn !== turn) return;
    this.turn = undefined;
    this.publishAll(turn.output.flush());
    const record: TurnRecord = { ...turn.record, ...outcome, endedAt: this.deps.now().toISOString() };
    this.ledger.put(record);
    this.deps.publish({ kind: 'turn_ended', turn: record });
    this.deps.log.info(
      { promptId: record.promptId, status: record.status, stopReason: record.stopReason },
      'turn ended',
    );
    if (this.status === 'prompting') this.status = 'ready';
  }

  private publishAll(events: readonly TurnOutputEvent[]): void {
    for (const event of events) this.deps.publish(event);
  }

  private onUpdate(acpSessionId: string, update: AgentUpdate): void {
    const turn = this.turn;
    // Outside a sent turn (e.g. the history a session/load replays) updates are not new output.
    if (turn === undefined || turn.stage !== 'sent' || acpSessionId !== this.session?.acpSessionId) return;
    this.publishAll(turn.output.apply(update));
    // Text streams: what arrived in one read goes out together, right after it.
    if (update.kind === 'message_chunk' && !this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        if (this.turn !== undefined) this.publishAll(this.turn.output.flush());
      });
    }
  }

  private onPermission(request: AgentPermissionRequest, withdrawn: AbortSignal): Promise<PermissionDecision> {
    const turn = this.turn;
    const cancelled = turn === undefined ? withdrawn : AbortSignal.any([withdrawn, turn.cancel.signal]);
    return handlePermission(
      this.permissionFlow,
      { turn: turn?.stage === 'sent' ? turn.output : undefined, lifetime: this.lifetime.signal, cancelled },
      request,
    );
  }
  /** The agent's stdout ended. Its exit normally follows at once; if it does not, it is ended. */
  private async onConnectionClosed(proc: AgentProcess): Promise<void> {
    if (this.stopRequested || this.status === 'exited') return;
    const exited = await withTimeout(proc.exited, this.deps.stopGraceMs, 'still running').then(
      () => true,
      () => false,
    );
    if (!exited && !this.stopRequested) this.endAgent(proc, 'the agent closed its ACP connection');
  }

  private endAgent(proc: AgentProcess, failure: string): void {
    this.failure ??= failure;
    this.deps.log.warn({ pid: proc.pid, reason: failure }, 'ending the agent');
    void proc.stop(this.deps.stopGraceMs);
  }

  private onExit(exit: AgentExit): void {
    const expected = this.stopRequested;
    const reason = expected ? `stopped by agentctl (${exit.reason})` : (this.failure ?? exit.reason);
    this.status = 'exited';
    this.exitReason = reason;
    this.mcpServer = null;
    this.lifetime.abort();
    if (this.turn !== undefined)
      this.endTurn(this.turn, { status: 'failed', stopReason: null, error: `agent exited: ${reason}` });
    this.deps.publish({ kind: 'agent_exited', exitCode: exit.exitCode, signal: exit.signal, reason, expected });
    this.deps.log.info({ pid: this.process?.pid, reason, expected }, 'agent exited');
    // What a crashed agent leaves behind in its group would otherwise run on as orphans.
    if (!expected) this.process?.kill();
    this.connection?.close();
    this.finish();
  }

  /** Stopped before it was ever spawned (replaced at once): only a queued prompt needs an ending. */
  private endUnstarted(): void {
    this.status = 'exited';
    this.exitReason = 'stopped before it started';
    this.mcpServer = null;
    if (this.turn !== undefined) {
      this.endTurn(this.turn, { status: 'failed', stopReason: null, error: 'agent exited: stopped before it started' });
    }
    this.finish();
  }
}
