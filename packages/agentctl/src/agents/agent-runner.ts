import { randomUUID } from 'node:crypto';
import {
  AGENT_NOTICE_LEVEL,
  type AgentRuntimeState,
  type AgentStatus,
  AppError,
  type TurnRecord,
} from '@kandev/protocol';
import { AcpConnectionClosedError, type AcpConnection, type McpServerSpec } from './acp-connection';
import { type AgentExit, describeError } from './agent-exit';
import type { HandshakeNotice } from './agent-handshake';
import {
  type AgentLaunchSpec,
  type AgentRunnerDeps,
  DEFAULT_MCP_CONNECT_TIMEOUT_MS,
  DEFAULT_TOOLS_REFRESH_GRACE_MS,
} from './agent-launch-spec';
import type { AgentProcess } from './agent-process';
import { type OpenSession, openAgentSession } from './agent-start';
import { type AgentToolView, NO_TOOL_VIEW } from './agent-tool-view';
import { AgentTurns } from './agent-turns';
import { NO_PERMISSION_ASKER } from './permission-responder';
import type { PromptLedger } from './prompt-ledger';
import type { SessionAgent } from './session-agent';
import { withTimeout } from './with-timeout';

/**
 * One agent process of a session: starting -> ready <-> prompting -> exited. Its lifecycle goes out as
 * session events: agent_started once the ACP session is open (agent_notice first when something keeps
 * the agent from working as its profile promises), its turns' events (agent-turns.ts), agent_exited
 * last.
 */
export class AgentRunner implements SessionAgent {
  private readonly spec: Omit<AgentLaunchSpec, 'mcpServer'>;
  private process: AgentProcess | undefined;
  private connection: AcpConnection | undefined;
  private session: OpenSession | undefined;
  private exited = false;
  private exitReason: string | null = null;
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
  private readonly turns: AgentTurns;
  private finish: () => void = () => undefined;
  private readonly finished = new Promise<void>((resolve) => (this.finish = resolve));

  constructor(
    spec: AgentLaunchSpec,
    ledger: PromptLedger,
    private readonly deps: AgentRunnerDeps,
  ) {
    const { mcpServer, ...rest } = spec;
    this.spec = rest;
    this.mcpServer = mcpServer;
    const tools = mcpServer === null ? NO_TOOL_VIEW : (deps.tools ?? NO_TOOL_VIEW);
    this.tools = tools;
    this.turns = new AgentTurns({
      sessionId: spec.sessionId,
      systemPrompt: spec.systemPrompt,
      ledger,
      tools,
      toolsRefreshGraceMs: deps.toolsRefreshGraceMs ?? DEFAULT_TOOLS_REFRESH_GRACE_MS,
      permissions: {
        sessionId: spec.sessionId,
        taskId: spec.taskId,
        policy: spec.permissionPolicy,
        asker: deps.permissions ?? NO_PERMISSION_ASKER,
        log: deps.log,
        newRequestId: randomUUID,
        mcpServerName: mcpServer?.name ?? null,
        toolNames: () => tools.toolNames(),
        publish: (events) => this.turns.publishAll(events),
      },
      publish: deps.publish,
      notice: (notice) => this.notice(notice),
      fail: (session, reason) => this.endAgent(session.proc, reason),
      log: deps.log,
      now: deps.now,
    });
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
      onUpdate: (id, update) => this.turns.onUpdate(id, update),
      onPermission: (_id, request, withdrawn) => this.turns.onPermission(request, withdrawn, this.lifetime.signal),
    });
    this.connection = connection;
    void connection.closed.then(() => this.onConnectionClosed(proc));
    void this.handshake(connection, proc, listingMark);
  }

  prompt(promptId: string, text: string): TurnRecord {
    if (this.stopRequested || this.exited) {
      const why = this.exitReason === null ? 'is stopping' : `has exited (${this.exitReason})`;
      throw new AppError(
        'failed_precondition',
        `the agent of session ${this.spec.sessionId} ${why}; resume the session first`,
      );
    }
    return this.turns.accept(promptId, text);
  }

  cancel(): { cancelled: boolean; promptId: string | null } {
    return this.turns.cancel();
  }

  async stop(): Promise<void> {
    if (!this.stopRequested) {
      this.stopRequested = true;
      this.lifetime.abort();
      if (this.process === undefined) this.endUnstarted();
      else if (!this.exited) void this.process.stop(this.deps.stopGraceMs);
    }
    await this.finished;
  }

  kill(): void {
    this.process?.kill();
  }

  state(): AgentRuntimeState {
    const handshake = this.session?.handshake;
    return {
      status: this.status(),
      pid: this.process?.pid ?? null,
      acpSessionId: this.session?.acpSessionId ?? null,
      loaded: handshake?.loaded ?? false,
      currentPromptId: this.turns.currentPromptId,
      exitReason: this.exitReason,
      turns: this.turns.shownTurns(),
      modeId: handshake?.modeId ?? null,
      systemPromptDelivery: handshake?.systemPromptDelivery ?? 'none',
      mcpConnected: this.session?.mcpListed ?? false,
    };
  }

  private status(): AgentStatus {
    if (this.exited) return 'exited';
    if (this.session === undefined) return 'starting';
    return this.turns.prompting ? 'prompting' : 'ready';
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
      if (this.stopRequested || this.exited) return;
      this.session = session;
      const { acpSessionId, loaded, modeId, systemPromptDelivery } = session.handshake;
      const mcpConnected = session.mcpListed;
      const ready = { acpSessionId, loaded, modeId, systemPromptDelivery, mcpConnected };
      this.deps.log.info({ pid: proc.pid, ...ready }, 'agent ready');
      for (const notice of notices) this.notice(notice);
      this.deps.publish({ kind: 'agent_started', pid: proc.pid ?? 0, ...ready });
      this.turns.open(session);
    } catch (err) {
      // A closed connection means the process is ending: its exit (code or signal) is the better reason.
      if (this.stopRequested || this.exited || err instanceof AcpConnectionClosedError) return;
      this.endAgent(proc, `handshake failed: ${describeError(err)}`);
    }
  }

  private notice(notice: HandshakeNotice): void {
    const level = AGENT_NOTICE_LEVEL[notice.code];
    this.deps.log.warn({ code: notice.code, level }, notice.message);
    this.deps.publish({ kind: 'agent_notice', code: notice.code, level, message: notice.message });
  }

  /** The agent's stdout ended. Its exit normally follows at once; if it does not, it is ended. */
  private async onConnectionClosed(proc: AgentProcess): Promise<void> {
    if (this.stopRequested || this.exited) return;
    const exited = await withTimeout(proc.exited, this.deps.stopGraceMs, 'still running').then(
      () => true,
      () => false,
    );
    if (!exited && !this.stopRequested) this.endAgent(proc, 'the agent closed its ACP connection');
  }

  private endAgent(proc: AgentProcess, failure: string): void {
    if (this.exited) return;
    this.failure ??= failure;
    this.deps.log.warn({ pid: proc.pid, reason: failure }, 'ending the agent');
    void proc.stop(this.deps.stopGraceMs);
  }

  private onExit(exit: AgentExit): void {
    const expected = this.stopRequested;
    const reason = expected ? `stopped by agentctl (${exit.reason})` : (this.failure ?? exit.reason);
    this.exited = true;
    this.exitReason = reason;
    this.mcpServer = null;
    this.lifetime.abort();
    this.turns.failRunning(`agent exited: ${reason}`);
    this.deps.publish({ kind: 'agent_exited', exitCode: exit.exitCode, signal: exit.signal, reason, expected });
    this.deps.log.info({ pid: this.process?.pid, reason, expected }, 'agent exited');
    // What a crashed agent leaves behind in its group would otherwise run on as orphans.
    if (!expected) this.process?.kill();
    this.connection?.close();
    this.finish();
  }

  /** Stopped before it was ever spawned (replaced at once): only a queued prompt needs an ending. */
  private endUnstarted(): void {
    this.exited = true;
    this.exitReason = 'stopped before it started';
    this.mcpServer = null;
    this.turns.failRunning('agent exited: stopped before it started');
    this.finish();
  }
}
