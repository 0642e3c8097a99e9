import { randomUUID } from 'node:crypto';
import {
  type AgentRuntimeState,
  type AgentStatus,
  AppError,
  type PermissionPolicy,
  type SessionEventBody,
  type TurnRecord,
} from '@kandev/protocol';
import type { Logger } from '../logger';
import {
  AcpConnectionClosedError,
  type AcpConnection,
  type AgentPermissionRequest,
  type AgentUpdate,
  type ConnectAcp,
  type McpServerSpec,
} from './acp-connection';
import { type AgentExit, describeError } from './agent-exit';
import { runHandshake } from './agent-handshake';
import type { AgentProcess, AgentSpawnSpec } from './agent-process';
import type { PermissionDecision } from './permission-policy';
import { answerPermission, NO_PERMISSION_ASKER, type PermissionAsker } from './permission-responder';
import type { PromptLedger } from './prompt-ledger';
import type { SessionAgent } from './session-agent';
import { TurnOutput } from './turn-output';
import { withTimeout } from './with-timeout';

/** Turns of one agent process shown in its state (the session's ledger remembers more). */
export const TURNS_SHOWN = 100;

export interface AgentLaunchSpec {
  readonly sessionId: string;
  readonly taskId: string;
  /** How the agent's session/request_permission is answered (the profile's permission_policy). */
  readonly permissionPolicy: PermissionPolicy;
  /** cwd is absolute; it is also the ACP session's cwd. */
  readonly process: AgentSpawnSpec;
  /** The session's MCP server with its bearer, or null (profile without MCP). */
  readonly mcpServer: McpServerSpec | null;
  readonly systemPrompt: string;
  readonly resumeAcpSessionId: string | null;
}

export interface AgentRunnerDeps {
  readonly spawn: (spec: AgentSpawnSpec) => AgentProcess;
  readonly connect: ConnectAcp;
  /** Events of this session, in order. */
  readonly publish: (event: SessionEventBody) => void;
  readonly log: Logger;
  readonly now: () => Date;
  readonly startTimeoutMs: number;
  readonly stopGraceMs: number;
  /** Answers permission requests under policy ask (absent: they are rejected). */
  readonly permissions?: PermissionAsker;
}

interface ActiveTurn {
  readonly record: TurnRecord;
  readonly text: string;
  /** session/prompt was sent (turn_started published); false while queued behind the handshake. */
  delivered: boolean;
  cancelRequested: boolean;
  readonly output: TurnOutput;
}

type TurnOutcome = Pick<TurnRecord, 'status' | 'stopReason' | 'error'>;

/**
 * One agent process of a session: starting -> ready <-> prompting -> exited. One turn at a time; a
 * prompt accepted while starting is delivered right after the handshake. Output and lifecycle go out
 * as session events: agent_started, then per turn turn_started, agent_message / tool_call, turn_ended,
 * and agent_exited last. A prompt that never reached the agent (cancelled while queued, or the agent
 * never came up) gets only its turn_ended.
 */
export class AgentRunner implements SessionAgent {
  private readonly spec: Omit<AgentLaunchSpec, 'mcpServer'>;
  private status: AgentStatus = 'starting';
  private process: AgentProcess | undefined;
  private connection: AcpConnection | undefined;
  private acpSessionId: string | null = null;
  private loaded = false;
  private exitReason: string | null = null;
  private turn: ActiveTurn | undefined;
  private readonly turnIds: string[] = [];
  private stopRequested = false;
  /** Why agentctl ended an agent that misbehaved (failed handshake, closed stdio); the exit reason. */
  private failure: string | undefined;
  /** Carries the plaintext MCP token until the handshake has sent it; never logged, never in state. */
  private mcpServer: McpServerSpec | null;
  /** Aborted once the agent stops or exits: permission requests still waiting reject. */
  private readonly lifetime = new AbortController();
  /** The session's permission policy applied to one session/request_permission. */
  private readonly answerPermission: (request: AgentPermissionRequest) => Promise<PermissionDecision>;
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
    const { sessionId, taskId, permissionPolicy: policy } = spec;
    const asker = deps.permissions ?? NO_PERMISSION_ASKER;
    const context = { sessionId, taskId, policy, asker, signal: this.lifetime.signal, log: deps.log };
    this.answerPermission = (request) => answerPermission({ ...context, newRequestId: randomUUID }, request);
  }

  start(): void {
    if (this.process !== undefined || this.stopRequested) return;
    const proc = this.deps.spawn(this.spec.process);
    this.process = proc;
    void proc.exited.then((exit) => this.onExit(exit));
    if (proc.stdio === null) return;
    this.deps.log.info({ pid: proc.pid, command: this.spec.process.command }, 'agent spawned');
    const connection = this.deps.connect(proc.stdio, {
      onUpdate: (id, update) => this.onUpdate(id, update),
      onPermission: (_acpSessionId, request) => this.answerPermission(request),
    });
    this.connection = connection;
    void connection.closed.then(() => this.onConnectionClosed(proc));
    void this.handshake(connection, proc);
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
    this.turn = { record, text, delivered: false, cancelRequested: false, output: new TurnOutput(promptId) };
    if (this.status === 'ready') this.deliver(this.turn);
    return record;
  }

  cancel(): { cancelled: boolean; promptId: string | null } {
    const turn = this.turn;
    if (turn === undefined) return { cancelled: false, promptId: null };
    const promptId = turn.record.promptId;
    if (!turn.delivered) {
      this.endTurn(turn, { status: 'completed', stopReason: 'cancelled', error: null });
      return { cancelled: true, promptId };
    }
    const { connection, acpSessionId } = this;
    if (!turn.cancelRequested && connection !== undefined && acpSessionId !== null) {
      turn.cancelRequested = true;
      connection.cancel(acpSessionId).catch((err: unknown) => this.deps.log.warn({ err, promptId }, 'cancel not sent'));
    }
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
    return {
      status: this.status,
      pid: this.process?.pid ?? null,
      acpSessionId: this.acpSessionId,
      loaded: this.loaded,
      currentPromptId: this.turn?.record.promptId ?? null,
      exitReason: this.exitReason,
      turns: this.turnIds.flatMap((id) => this.ledger.get(id) ?? []),
    };
  }

  private async handshake(connection: AcpConnection, proc: AgentProcess): Promise<void> {
    const { startTimeoutMs } = this.deps;
    const request = {
      cwd: this.spec.process.cwd,
      mcpServers: this.mcpServer === null ? [] : [this.mcpServer],
      systemPrompt: this.spec.systemPrompt,
      resumeAcpSessionId: this.spec.resumeAcpSessionId,
    };
    this.mcpServer = null;
    try {
      const result = await withTimeout(
        runHandshake(connection, request, this.deps.log),
        startTimeoutMs,
        `no answer within ${startTimeoutMs} ms`,
      );
      if (this.stopRequested || this.status === 'exited') return;
      this.acpSessionId = result.acpSessionId;
      this.loaded = result.loaded;
      this.status = 'ready';
      this.deps.log.info({ pid: proc.pid, acpSessionId: result.acpSessionId, loaded: result.loaded }, 'agent ready');
      this.deps.publish({
        kind: 'agent_started',
        pid: proc.pid ?? 0,
        acpSessionId: result.acpSessionId,
        loaded: result.loaded,
      });
      if (this.turn !== undefined) this.deliver(this.turn);
    } catch (err) {
      // A closed connection means the process is ending: its exit (code or signal) is the better reason.
      if (this.stopRequested || this.status === 'exited' || err instanceof AcpConnectionClosedError) return;
      this.endAgent(proc, `handshake failed: ${describeError(err)}`);
    }
  }

  private deliver(turn: ActiveTurn): void {
    const { connection, acpSessionId } = this;
    if (connection === undefined || acpSessionId === null) return;
    turn.delivered = true;
    this.status = 'prompting';
    this.deps.publish({ kind: 'turn_started', promptId: turn.record.promptId });
    connection.prompt(acpSessionId, turn.text).then(
      ({ stopReason }) => this.endTurn(turn, { status: 'completed', stopReason, error: null }),
      (err: unknown) => {
        // The agent is going away: the exit handler ends the turn with the exit reason.
        if (err instanceof AcpConnectionClosedError) return;
        this.endTurn(turn, { status: 'failed', stopReason: null, error: describeError(err) });
      },
    );
  }

  private endTurn(turn: ActiveTurn, outcome: TurnOutcome): void {
    if (this.turn !== turn) return;
    this.turn = undefined;
    for (const event of turn.output.flush()) this.deps.publish(event);
    const record: TurnRecord = { ...turn.record, ...outcome, endedAt: this.deps.now().toISOString() };
    this.ledger.put(record);
    this.deps.publish({ kind: 'turn_ended', turn: record });
    this.deps.log.info(
      { promptId: record.promptId, status: record.status, stopReason: record.stopReason },
      'turn ended',
    );
    if (this.status === 'prompting') this.status = 'ready';
  }

  private onUpdate(acpSessionId: string, update: AgentUpdate): void {
    const turn = this.turn;
    // Outside a delivered turn (e.g. the history a session/load replays) updates are not new output.
    if (turn === undefined || !turn.delivered || acpSessionId !== this.acpSessionId) return;
    for (const event of turn.output.apply(update)) this.deps.publish(event);
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
