import type { Provider } from '@kandev/protocol';
import type { SessionPlacement } from '../executors/executor';
import type { Logger } from '../logger';
import type { Stores } from '../store/unit-of-work';
import { loadProviderSet } from './provider-set';
import type { AgentSessionState } from '../sessions/agent-session';
import type { ProviderPusher } from './provider-pusher';
import { isSettledLive } from '../sessions/session-lifecycle';
import {
  decideProviderRefresh,
  type RefreshSummary,
  type SessionRefreshResult,
  summarizeRefresh,
} from './provider-refresh';
import type { RefreshScheduler } from './provider-reconciler';

/** A live session after a committed source change, with its (possibly bumped) desired state. */
export interface PlannedSession {
  sessionId: string;
  /** Where the session runs, as read in the change's transaction: its push goes there. */
  placement: SessionPlacement;
  state: AgentSessionState;
  revision: number;
  providers: Provider[];
  bumped: boolean;
}

/** What a committed change did to the task's provider set and its live sessions. */
export interface RefreshPlan {
  taskId: string;
  providers: Provider[];
  sessions: PlannedSession[];
}

export interface ProviderRefreshServiceDeps {
  pusher: ProviderPusher;
  scheduler: RefreshScheduler;
  logger: Logger;
}

/**
 * Live provider refresh after a committed change to a task's sources: inside the change's
 * transaction, one recomputation and one desired-revision bump per live session whose set changed;
 * after the commit, one UpdateProviders per such settled session (after a GetSession probe). A failed push keeps agentctl's
 * older, smaller set (fail closed) and hands the session to the reconciler.
 */
export class ProviderRefreshService {
  constructor(private readonly deps: ProviderRefreshServiceDeps) {}

  /** Call inside the transaction that changed the task's sources. */
  async plan(stores: Stores, taskId: string, now: string): Promise<RefreshPlan> {
    const providers = await loadProviderSet(stores, taskId);
    const sessions: PlannedSession[] = [];
    for (const session of await stores.sessions.listLive(taskId)) {
      const current = { revision: session.revision, providers: session.launchConfig.providers };
      const decision = decideProviderRefresh(current, providers);
      if (decision.kind === 'bump') {
        const config = { ...session.launchConfig, providers: decision.providers, revision: decision.revision };
        await stores.sessions.updateDesired(session.id, config, now);
      }
      sessions.push({
        sessionId: session.id,
        placement: { id: session.id, executor: session.executor, agentctlAddress: session.agentctlAddress },
        state: session.state,
        revision: decision.kind === 'bump' ? decision.revision : session.revision,
        providers: decision.kind === 'bump' ? decision.providers : [...current.providers],
        bumped: decision.kind === 'bump',
      });
    }
    return { taskId, providers, sessions };
  }

  /**
   * Call after the commit. Settled sessions only (running or waiting for input): a session still
   * starting is caught up when it leaves starting (after CreateSession, or at agent_started), which
   * sees the bumped revision.
   */
  async push(plan: RefreshPlan): Promise<RefreshSummary> {
    const running = plan.sessions.filter((session) => isSettledLive(session.state));
    const results = await Promise.all(running.map((session) => this.pushOne(session)));
    const summary = summarizeRefresh(results);
    this.deps.logger.info(
      { taskId: plan.taskId, providers: plan.providers, status: summary.status },
      'providers refreshed',
    );
    return summary;
  }

  private async pushOne(session: PlannedSession): Promise<SessionRefreshResult> {
    if (!session.bumped) return { sessionId: session.sessionId, status: 'not_needed', revision: session.revision };
    const target = { session: session.placement, providers: session.providers, revision: session.revision };
    const { retry, ...result } = await this.deps.pusher.sync(target);
    if (retry) this.deps.scheduler.schedule(session.sessionId);
    return result;
  }
}
