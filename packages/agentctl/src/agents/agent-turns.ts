import { AppError, type SessionEventBody, type TurnRecord } from '@kandev/protocol';
import type { Logger } from '../logger';
import { AcpConnectionClosedError, type AgentPermissionRequest, type AgentUpdate } from './acp-connection';
import { describeError } from './agent-exit';
import type { HandshakeNotice } from './agent-handshake';
import { handlePermission, type PermissionFlowDeps } from './agent-permissions';
import type { OpenSession } from './agent-start';
import type { AgentToolView } from './agent-tool-view';
import { prepareTurnText, toolsChangedFor } from './agent-turn-start';
import type { PermissionDecision } from './permission-policy';
import type { PromptLedger } from './prompt-ledger';
import { withPreamble } from './system-prompt-delivery';
import { TurnOutput, type TurnOutputEvent } from './turn-output';

// The turns of one agent process: one at a time; a prompt accepted before the ACP session is open waits
// for it. Per turn: turn_started, the boundary's work (tools the agent missed), session/prompt, what the
// agent streams (agent_message / tool_call / plan), turn_ended. A prompt that never reached the agent
// (cancelled while queued, or the agent never came up) gets only its turn_ended.

/** Turns of one agent process shown in its state (the session's ledger remembers more). */
export const TURNS_SHOWN = 100;

/** The warning a completed turn carries while the agent never listed its MCP tools. */
export const NO_KANDEV_TOOLS_WARNING =
  'the agent never connected to its MCP server: it had no kandev tools in this turn';

interface ActiveTurn {
  readonly record: TurnRecord;
  readonly text: string;
  /**
   * queued: the ACP session is not open yet; preparing: turn_started published, the turn boundary's
   * work runs; sent: session/prompt is out.
   */
  stage: 'queued' | 'preparing' | 'sent';
  cancelRequested: boolean;
  readonly output: TurnOutput;
  /** Aborted by cancel: permission requests of this turn are answered cancelled. */
  readonly cancel: AbortController;
}

type TurnOutcome = Pick<TurnRecord, 'status' | 'stopReason' | 'error'>;

export interface AgentTurnsDeps {
  readonly sessionId: string;
  readonly systemPrompt: string;
  readonly ledger: PromptLedger;
  readonly tools: AgentToolView;
  readonly toolsRefreshGraceMs: number;
  readonly permissions: PermissionFlowDeps;
  readonly publish: (event: SessionEventBody) => void;
  readonly notice: (notice: HandshakeNotice) => void;
  /** The agent cannot go on (its ACP session may be closed): end the process with this reason. */
  readonly fail: (session: OpenSession, reason: string) => void;
  readonly log: Logger;
  readonly now: () => Date;
}

export class AgentTurns {
  private turn: ActiveTurn | undefined;
  private readonly turnIds: string[] = [];
  private session: OpenSession | undefined;
  /** Set when a batch of updates arrived: their text goes out once the batch is read. */
  private flushScheduled = false;

  constructor(private readonly deps: AgentTurnsDeps) {}

  get currentPromptId(): string | null {
    return this.turn?.record.promptId ?? null;
  }

  /** A turn is past its queue: turn_started was published and it has not ended. */
  get prompting(): boolean {
    return this.turn !== undefined && this.turn.stage !== 'queued';
  }

  shownTurns(): TurnRecord[] {
    return this.turnIds.flatMap((id) => this.deps.ledger.get(id) ?? []);
  }

  /** Takes a prompt id the session has not seen; failed_precondition while another turn runs. */
  accept(promptId: string, text: string): TurnRecord {
    if (this.turn !== undefined) {
      throw new AppError(
        'failed_precondition',
        `prompt ${this.turn.record.promptId} is still running on session ${this.deps.sessionId}; wait for its turn to end or cancel it`,
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
    this.deps.ledger.put(record);
    this.turnIds.push(promptId);
    if (this.turnIds.length > TURNS_SHOWN) this.turnIds.shift();
    const output = new TurnOutput(promptId);
    this.turn = { record, text, stage: 'queued', cancelRequested: false, output, cancel: new AbortController() };
    if (this.session !== undefined) this.deliver(this.turn, this.session);
    return record;
  }

  /** The ACP session is open: a prompt that waited for it is delivered now. */
  open(session: OpenSession): void {
    this.session = session;
    if (this.turn !== undefined) this.deliver(this.turn, session);
  }

  cancel(): { cancelled: boolean; promptId: string | null } {
    const turn = this.turn;
    if (turn === undefined) return { cancelled: false, promptId: null };
    const promptId = turn.record.promptId;
    turn.cancel.abort();
    if (turn.stage === 'queued') {
      this.end(turn, { status: 'completed', stopReason: 'cancelled', error: null });
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

  /** The agent is gone: the running turn fails with why. */
  failRunning(error: string): void {
    if (this.turn !== undefined) this.end(this.turn, { status: 'failed', stopReason: null, error });
  }

  onUpdate(acpSessionId: string, update: AgentUpdate): void {
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

  onPermission(
    request: AgentPermissionRequest,
    withdrawn: AbortSignal,
    lifetime: AbortSignal,
  ): Promise<PermissionDecision> {
    const turn = this.turn;
    const cancelled = turn === undefined ? withdrawn : AbortSignal.any([withdrawn, turn.cancel.signal]);
    const output = turn?.stage === 'sent' ? turn.output : undefined;
    return handlePermission(this.deps.permissions, { turn: output, lifetime, cancelled }, request);
  }

  private deliver(turn: ActiveTurn, session: OpenSession): void {
    turn.stage = 'preparing';
    this.deps.publish({ kind: 'turn_started', promptId: turn.record.promptId });
    if (toolsChangedFor(session, this.deps.tools)) void this.prepareAndSend(turn, session);
    else this.send(turn, session, turn.text);
  }

  /** The tools changed since the agent last listed them: the boundary's work first, then the prompt. */
  private async prepareAndSend(turn: ActiveTurn, session: OpenSession): Promise<void> {
    let text: string;
    try {
      const prepared = await prepareTurnText(session, turn.text, {
        policy: this.deps.permissions.policy,
        tools: this.deps.tools,
        graceMs: this.deps.toolsRefreshGraceMs,
        log: this.deps.log,
      });
      if (prepared.notice !== null) this.deps.notice(prepared.notice);
      text = prepared.text;
    } catch (err) {
      if (err instanceof AcpConnectionClosedError || this.turn !== turn) return;
      this.deps.fail(session, `could not reopen its ACP session for changed tools: ${describeError(err)}`);
      return;
    }
    if (this.turn !== turn) return;
    if (turn.cancelRequested) {
      this.end(turn, { status: 'completed', stopReason: 'cancelled', error: null });
      return;
    }
    this.send(turn, session, text);
  }

  private send(turn: ActiveTurn, session: OpenSession, text: string): void {
    const prompt = session.preamblePending ? withPreamble(this.deps.systemPrompt, text) : text;
    session.preamblePending = false;
    turn.stage = 'sent';
    session.connection.prompt(session.acpSessionId, prompt).then(
      ({ stopReason }) => this.end(turn, { status: 'completed', stopReason, error: this.warning(session) }),
      (err: unknown) => {
        // The agent is going away: its exit ends the turn with the exit reason.
        if (err instanceof AcpConnectionClosedError) return;
        this.end(turn, { status: 'failed', stopReason: null, error: describeError(err) });
      },
    );
  }

  /** A completed turn of an agent that still never listed its MCP tools says so. */
  private warning(session: OpenSession): string | null {
    if (session.handshake.setup.mcpServers.length === 0) return null;
    session.mcpListed ||= this.deps.tools.listingCount() > session.listingMark;
    return session.mcpListed ? null : NO_KANDEV_TOOLS_WARNING;
  }

  private end(turn: ActiveTurn, outcome: TurnOutcome): void {
    if (this.turn !== turn) return;
    this.turn = undefined;
    this.publishAll(turn.output.flush());
    const record: TurnRecord = { ...turn.record, ...outcome, endedAt: this.deps.now().toISOString() };
    this.deps.ledger.put(record);
    this.deps.publish({ kind: 'turn_ended', turn: record });
    this.deps.log.info(
      { promptId: record.promptId, status: record.status, stopReason: record.stopReason },
      'turn ended',
    );
  }

  publishAll(events: readonly TurnOutputEvent[]): void {
    for (const event of events) this.deps.publish(event);
  }
}
