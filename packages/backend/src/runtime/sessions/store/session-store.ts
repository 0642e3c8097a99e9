import { type LaunchConfig, type Provider, redactLaunchConfig } from '@kandev/protocol';
import type { EventStore } from '../../../platform/events/event-store';
import { sendWrite } from '../../../platform/store/driver/store-transaction';
import type { Sql } from '../../../platform/store/sql';
import type { AgentSession, AgentSessionState } from '../agent-session';
import { type Acknowledged, type KeptToolLists, SessionEventRecorder, type ToolListEntry } from '../session-events';
import { assertTransition, ENDED_SESSION_STATES, nextState, type SessionFact } from '../session-lifecycle';
import {
  acknowledgedColumns,
  type DesiredRevision,
  recordAppliedMany,
  updateDesiredMany,
} from './session-fan-out-writes';
import { SessionReads } from './session-reads';
import { fromRow, SESSION_COLUMNS, type SessionRow, toRow } from './session-rows';

export type { Acknowledged } from '../session-events';

/** Columns a state change may write along with the state. */
export interface StateColumns {
  lastError?: string | null;
  /** The agentctl it goes to: its address, and the replica when only that one reaches it. */
  agentctl?: AgentctlPlace;
  acpSessionId?: string;
}

/** Where a session's agentctl is, as its row records it (AgentctlEndpoint's address and replica). */
export interface AgentctlPlace {
  grpcAddress: string;
  replica?: string;
}

function placeColumns(place: AgentctlPlace): { agentctl_address: string; agentctl_replica: string | null } {
  return { agentctl_address: place.grpcAddress, agentctl_replica: place.replica ?? null };
}

/**
 * Sessions: the reads (session-reads.ts) and every write. A state change appends session.state_changed,
 * and an acknowledgement whose tool list differs from the last one appends tools.changed, on the same
 * connection as the change itself.
 */
export class SessionStore extends SessionReads {
  private readonly recorder: SessionEventRecorder;

  constructor(db: Sql, events: EventStore) {
    super(db);
    this.recorder = new SessionEventRecorder(db, events);
  }

  /** The launch config is stored redacted: the MCP token never reaches the database. */
  async insert(session: AgentSession): Promise<void> {
    await this.insertRow(session);
    await this.recorder.stateChanged(session.id, null, session.state, session.createdAt, session);
  }

  /**
   * A launch placed on an agentctl known before its row (Agentctls.placementNow): written `starting`
   * there at once, one transaction instead of two; its events still read created, then starting.
   */
  async insertPlaced(session: AgentSession): Promise<void> {
    await this.insertRow(session);
    await this.recorder.stateChanged(session.id, null, 'created', session.createdAt, session);
    await this.recorder.stateChanged(session.id, 'created', session.state, session.createdAt, session);
  }

  private async insertRow(session: AgentSession): Promise<void> {
    await sendWrite(this.db, this.db('sessions').insert(toRow(session)));
  }

  /**
   * The one way a state changes: the fact's next state (session-lifecycle.ts), written only while
   * the row still has the state the caller read (compare-and-set), so a stale writer changes nothing.
   * Resolves the new state, or null when the fact changes nothing or the row moved on.
   */
  async advance(
    session: Pick<AgentSession, 'id' | 'state'> & Partial<Pick<AgentSession, 'taskId' | 'executor'>>,
    fact: SessionFact,
    now: string,
    columns: StateColumns = {},
  ): Promise<AgentSessionState | null> {
    const to = nextState(session.state, fact);
    if (to === null) return null;
    return (await this.compareAndSet(session.id, session.state, to, now, columns, session)) ? to : null;
  }

  /** Reads the current state, then advances from it (for callers that hold no row). */
  async advanceCurrent(id: string, fact: SessionFact, now: string, columns: StateColumns = {}) {
    const session = await this.findById(id);
    return session === undefined ? null : this.advance(session, fact, now, columns);
  }

  private async compareAndSet(
    id: string,
    from: AgentSessionState,
    to: AgentSessionState,
    now: string,
    columns: StateColumns,
    known?: Partial<Pick<AgentSession, 'taskId' | 'executor'>>,
  ): Promise<boolean> {
    const written = await this.writeState(id, from, to, now, columns);
    if (written) await this.recorder.stateChanged(id, from, to, now, known, columns.lastError ?? null);
    return written;
  }

  /** compareAndSet's write alone: its caller records the event. */
  private async writeState(
    id: string,
    from: AgentSessionState,
    to: AgentSessionState,
    now: string,
    columns: StateColumns,
  ): Promise<boolean> {
    assertTransition(from, to);
    const updated = await this.db('sessions')
      .where({ id, state: from })
      .update({
        state: to,
        ...(columns.lastError === undefined ? {} : { last_error: columns.lastError }),
        ...(columns.agentctl === undefined ? {} : placeColumns(columns.agentctl)),
        ...(columns.acpSessionId === undefined ? {} : { acp_session_id: columns.acpSessionId }),
        updated_at: now,
      });
    return updated > 0;
  }

  /** The agentctl a starting session is being handed to (resume: possibly a new one). */
  async recordStartingOn(id: string, agentctl: AgentctlPlace, now: string): Promise<boolean> {
    const updated = await this.db('sessions')
      .where({ id, state: 'starting' })
      .update({ ...placeColumns(agentctl), updated_at: now });
    return updated > 0;
  }

  /** agent_started told the agent's ACP session id (kept for a resume's session/load). */
  async recordAcpSession(id: string, acpSessionId: string, now: string): Promise<void> {
    await this.db('sessions').where({ id }).update({ acp_session_id: acpSessionId, updated_at: now });
  }

  /**
   * A warning about the session's agent (an agent notice): its last error, with no state change. An
   * ended session keeps the reason it ended with.
   */
  async recordWarning(id: string, message: string, now: string): Promise<void> {
    await this.db('sessions')
      .where({ id })
      .whereNotIn('state', [...ENDED_SESSION_STATES])
      .update({ last_error: message, updated_at: now });
  }

  /**
   * Resume: a rebuilt desired config with a fresh token, pending until agentctl takes it; the state
   * moves to starting by compare-and-set on the state the resume read (false: it moved on).
   */
  async replaceForResume(
    session: Pick<AgentSession, 'id' | 'state'> & Partial<Pick<AgentSession, 'taskId' | 'executor'>>,
    replacement: { config: LaunchConfig; mcpTokenHash: string; now: string },
  ): Promise<boolean> {
    const to = nextState(session.state, { kind: 'resumed' });
    if (to === null) return false;
    assertTransition(session.state, to);
    const updated = await this.db('sessions')
      .where({ id: session.id, state: session.state })
      .update({
        state: to,
        revision: replacement.config.revision,
        launch_config: JSON.stringify(redactLaunchConfig(replacement.config)),
        mcp_token_hash: replacement.mcpTokenHash,
        updated_at: replacement.now,
      });
    if (updated > 0) await this.recorder.stateChanged(session.id, session.state, to, replacement.now, session);
    return updated > 0;
  }

  /**
   * agentctl accepted the whole config (launch or resume): it holds this revision now. Resolves the row
   * as written, or undefined when a newer acknowledgement was already recorded (nothing written). With
   * `fact`, the state change it brings from the state the caller knows (compare-and-set) is written in
   * the same round trip; its event follows tools.changed.
   */
  async recordAccepted(
    session: Pick<AgentSession, 'id' | 'taskId'> & Partial<Pick<AgentSession, 'state' | 'executor'>>,
    acknowledged: Acknowledged,
    now: string,
    fact?: SessionFact,
  ): Promise<AgentSession | undefined> {
    const entries = [{ id: session.id, taskId: session.taskId, acknowledged }];
    // Sent first, so the kept tool list is read right behind it, under its row lock (on PostgreSQL these
    // and the state change travel in one round trip).
    const updated = this.db<SessionRow>('sessions')
      .where({ id: session.id })
      .where('applied_revision', '<=', acknowledged.revision)
      .update({ last_error: null, ...acknowledgedColumns(acknowledged, now), updated_at: now })
      .returning(SESSION_COLUMNS)
      .then((rows: SessionRow[]) => rows);
    const kept = this.recorder.keptToolLists(entries);
    const from = session.state;
    const to = fact === undefined || from === undefined ? null : nextState(from, fact);
    const moving = from !== undefined && to !== null ? this.writeState(session.id, from, to, now, {}) : false;
    const [[row], keptLists, moved] = await Promise.all([updated, kept, moving]);
    if (row !== undefined) await this.recorder.toolLists(entries, now, keptLists);
    const state = moved ? to : null; // set only when the compare-and-set won (so `from` was known)
    if (state !== null) await this.recorder.stateChanged(session.id, from ?? null, state, now, session);
    if (row === undefined) return undefined;
    return state === null ? fromRow(row) : { ...fromRow(row), state, updatedAt: now };
  }

  /**
   * A lost MCP-only session was registered again on the agentctl at `agentctl`, at the
   * acknowledged revision; only while it is still live where the caller found it (compare-and-set).
   */
  async recordRestoredOn(
    session: Pick<AgentSession, 'id' | 'taskId' | 'state' | 'agentctlAddress'>,
    agentctl: AgentctlPlace,
    acknowledged: Acknowledged,
    now: string,
  ): Promise<boolean> {
    const updated = await this.db('sessions')
      .where({ id: session.id, state: session.state, agentctl_address: session.agentctlAddress })
      .update({ ...placeColumns(agentctl), ...acknowledgedColumns(acknowledged, now), updated_at: now });
    if (updated > 0) await this.recorder.toolLists([{ id: session.id, taskId: session.taskId, acknowledged }], now);
    return updated > 0;
  }

  /** The kept tool lists of these sessions (what recordAppliedMany compares the acknowledged ones with). */
  keptToolListsOf(entries: readonly Pick<ToolListEntry, 'id' | 'acknowledged'>[]): Promise<KeptToolLists> {
    return this.recorder.keptToolLists(entries);
  }

  /**
   * recordApplied for many sessions whose applied revision the caller read in this transaction;
   * `kept` (keptToolListsOf, read alongside that read) covers at least these sessions.
   */
  async recordAppliedMany(entries: readonly ToolListEntry[], now: string, kept: KeptToolLists): Promise<void> {
    await recordAppliedMany(this.db, entries, now);
    await this.recorder.toolLists(entries, now, kept);
  }

  /** The sessions' new desired revisions, each stored config moved to `providers` at its revision. */
  updateDesiredMany(sessions: readonly DesiredRevision[], providers: readonly Provider[], now: string): Promise<void> {
    return updateDesiredMany(this.db, sessions, providers, now);
  }

  /** A refresh did not land: the session keeps what agentctl last acknowledged. */
  async recordRefreshError(id: string, message: string, now: string): Promise<void> {
    await this.db('sessions')
      .where({ id })
      .update({
        refresh_error: message,
        refresh_attempts: this.db.raw('refresh_attempts + 1'),
        refreshed_at: now,
        updated_at: now,
      });
  }
}
