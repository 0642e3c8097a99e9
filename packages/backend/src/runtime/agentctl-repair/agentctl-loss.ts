import type { Logger } from '../../platform/logger/logger';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import { applyAgentGone } from '../turns/turn-outcome';
import type { SessionLanes } from '../sessions/session-lanes';
import { isLive } from '../sessions/session-lifecycle';
import { onSameAgentctl, type SessionPlacement } from '../agentctl/executor';

export interface AgentctlLossDeps {
  uow: UnitOfWork;
  clock: () => Date;
  lanes: SessionLanes;
  logger: Logger;
}

/**
 * An executor reports that the agentctl a session ran on died (its container exited): on the session's
 * lane, a session still recorded on that agentctl fails with the reason, and its prompt in flight fails;
 * queued prompts stay for a resume, which starts a new agentctl with the full config. A session already
 * moved elsewhere (resumed) or ended is left alone.
 */
export class AgentctlLossHandler {
  constructor(private readonly deps: AgentctlLossDeps) {}

  /** Resolves whether the session failed now (false: it had moved, ended, or the write failed: logged). */
  handle(
    session: Pick<SessionPlacement, 'id' | 'agentctlAddress' | 'agentctlReplica'>,
    reason: string,
  ): Promise<boolean> {
    return this.deps.lanes
      .run(session.id, async () => {
        const now = this.deps.clock().toISOString();
        const applied = await this.deps.uow.transaction(async (stores) => {
          const row = await stores.sessions.findById(session.id);
          if (row === undefined || !isLive(row.state) || !onSameAgentctl(row, session)) return null;
          const gone = { kind: 'lost', reason, promptError: reason, cleanExit: false } as const;
          return (await applyAgentGone(stores, session.id, gone, now)).state;
        });
        this.deps.logger.warn({ sessionId: session.id, reason, state: applied }, 'session agentctl lost');
        return applied !== null;
      })
      .catch((err: unknown) => {
        this.deps.logger.error({ err, sessionId: session.id }, 'agentctl loss not recorded');
        return false;
      });
  }
}
