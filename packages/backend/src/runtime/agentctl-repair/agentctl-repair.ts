import { isAppError, type RuntimeSessionState } from '@kandev/protocol';
import type { Agentctls } from '../agentctl/agentctls';
import type { AgentctlApi } from '../agentctl/agentctl-client';
import { HeldSessions } from '../agentctl/held-sessions';
import type { AgentctlEndpoint } from '../agentctl/executor';
import type { Logger } from '../../platform/logger/logger';
import type { ProviderPusher } from '../provider-refresh/provider-pusher';
import type { AgentSession } from '../sessions/agent-session';
import { isLive, LIVE_SESSION_STATES } from '../sessions/session-lifecycle';
import type { SessionLanes } from '../sessions/session-lanes';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import { applyAgentGone } from '../turns/turn-outcome';
import { isPerSessionKind } from '../agentctl/executor';

/** last_error of a session whose agent died with its agentctl (resume starts it again). */
export const AGENTCTL_LOST_REASON = 'agentctl_lost: the agentctl running this session died with its agent; resume it';
const AGENTCTL_LOST_PROMPT_ERROR = 'agentctl_lost: the agentctl running this prompt died';

export interface AgentctlRepairDeps {
  uow: UnitOfWork;
  clock: () => Date;
  agentctls: Agentctls;
  pusher: ProviderPusher;
  lanes: SessionLanes;
  logger: Logger;
}

/** What one session's repair did. */
export type RepairOutcome = 'in_sync' | 'pushed' | 'restored' | 'failed' | 'skipped';

/**
 * Runs each time an agentctl accepts an Attach stream (it connected, reconnected or restarted; ADR:
 * agentctl loss and repair). Every live session placed on it (or, for an executor whose one agentctl
 * serves all its sessions, on one of its agentctls that is gone) is compared with what it holds, on
 * the session's lane:
 * - held, but behind the desired revision: pushed now (the provider set catches up);
 * - not held and MCP-only: registered again with its stored config at the desired revision and the
 *   hash of its MCP token, so its clients' URL and token keep working;
 * - not held and with an agent (the agent died with the agentctl): `failed`, reason `agentctl_lost`.
 */
export class AgentctlRepair {
  constructor(private readonly deps: AgentctlRepairDeps) {}

  async repair(endpoint: AgentctlEndpoint): Promise<Map<string, RepairOutcome>> {
    const outcomes = new Map<string, RepairOutcome>();
    const owner = this.deps.agentctls.ownerOf(endpoint.grpcAddress);
    if (owner === undefined) return outcomes;
    const live = await this.deps.uow.read.sessions.listByStates(LIVE_SESSION_STATES);
    const placed = live.filter((s) => s.executor === owner.name && this.placedOn(s, endpoint, owner.kind));
    const snapshot = new HeldSessions();
    const client = this.deps.agentctls.at(endpoint);
    await Promise.all(
      placed.map(async (s) => {
        try {
          // In sync as listed and as agentctl answered: nothing to do, so no lane and no second read (a
          // change since bumps the revision, and whoever bumped it pushes it).
          if (this.inSync(s, await snapshot.lookup(client, s.id), endpoint)) {
            outcomes.set(s.id, 'in_sync');
            return;
          }
          const repairOne = () => this.repairOne(s.id, endpoint, owner.kind, snapshot);
          const outcome = await this.deps.lanes.run(s.id, repairOne);
          outcomes.set(s.id, outcome);
        } catch (err) {
          this.deps.logger.warn({ err, sessionId: s.id }, 'session repair failed; the next attach tries again');
        }
      }),
    );
    const counts: Record<string, number> = {};
    for (const outcome of outcomes.values()) counts[outcome] = (counts[outcome] ?? 0) + 1;
    if (outcomes.size > 0) this.deps.logger.info({ grpcAddress: endpoint.grpcAddress, ...counts }, 'sessions repaired');
    return outcomes;
  }

  /** On this agentctl, or (local, remote: one agentctl serves them all) on one of the executor's that is gone. */
  private placedOn(session: AgentSession, endpoint: AgentctlEndpoint, kind: string): boolean {
    // Another replica's own local agentctl holds it: never this one's to restore or fail.
    if (this.deps.agentctls.servedElsewhere(session) !== undefined) return false;
    if (session.agentctlAddress === endpoint.grpcAddress) return true;
    return (
      !isPerSessionKind(kind) && session.agentctlAddress !== null && this.deps.agentctls.find(session) === undefined
    );
  }

  private async repairOne(
    sessionId: string,
    endpoint: AgentctlEndpoint,
    kind: string,
    snapshot: HeldSessions,
  ): Promise<RepairOutcome> {
    const session = await this.deps.uow.read.sessions.findById(sessionId);
    if (session === undefined || !isLive(session.state) || !this.placedOn(session, endpoint, kind)) return 'skipped';
    const client = this.deps.agentctls.at(endpoint);
    const held = await this.heldNow(client, sessionId, snapshot);
    if (held !== undefined) {
      if (session.agentctlAddress !== endpoint.grpcAddress) return 'skipped';
      if (held.config.revision >= session.revision && session.appliedRevision >= session.revision) return 'in_sync';
      const target = { session, providers: session.launchConfig.providers, revision: session.revision };
      await this.deps.pusher.sync(target);
      return 'pushed';
    }
    const now = this.deps.clock().toISOString();
    if (session.launchConfig.agent !== null || session.state !== 'waiting_for_input') {
      const gone = {
        kind: 'lost',
        reason: AGENTCTL_LOST_REASON,
        promptError: AGENTCTL_LOST_PROMPT_ERROR,
        cleanExit: false,
      } as const;
      const applied = await this.deps.uow.transaction((stores) => applyAgentGone(stores, sessionId, gone, now));
      this.deps.logger.warn({ sessionId, state: applied.state }, 'session failed: its agentctl was lost');
      return 'failed';
    }
    // The stored config is the desired one at the desired revision, its token blanked: agentctl gets
    // the token's hash instead (all the backend keeps).
    const restored = await client.restoreSession(
      { ...session.launchConfig, revision: session.revision },
      session.mcpTokenHash,
    );
    const acknowledged = {
      revision: restored.config.revision,
      providers: restored.config.providers,
      toolNames: restored.toolNames,
    };
    const recorded = await this.deps.uow.read.sessions.recordRestoredOn(session, endpoint, acknowledged, now);
    this.deps.logger.info({ sessionId, revision: acknowledged.revision, recorded }, 'session restored on agentctl');
    return 'restored';
  }

  private inSync(session: AgentSession, held: RuntimeSessionState | undefined, endpoint: AgentctlEndpoint): boolean {
    return (
      held !== undefined &&
      session.agentctlAddress === endpoint.grpcAddress &&
      held.config.revision >= session.revision &&
      session.appliedRevision >= session.revision
    );
  }

  /**
   * What agentctl holds: found in the pass's one ListSessions, or else asked now (a session may have
   * landed since that answer, and a session that is held must never be restored or failed). A held
   * revision that moved on since is harmless: a push at the desired revision is idempotent.
   */
  private async heldNow(
    client: AgentctlApi,
    sessionId: string,
    snapshot: HeldSessions,
  ): Promise<RuntimeSessionState | undefined> {
    return (await snapshot.lookup(client, sessionId)) ?? (await this.held(client.getSession(sessionId)));
  }

  /** Undefined when agentctl does not hold the session; other failures throw (the next attach retries). */
  private async held(call: Promise<RuntimeSessionState>): Promise<RuntimeSessionState | undefined> {
    try {
      return await call;
    } catch (error) {
      if (isAppError(error) && error.code === 'not_found') return undefined;
      throw error;
    }
  }
}
