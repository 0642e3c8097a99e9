import { normalizeProviderSet, type Provider } from '@kandev/protocol';
import type { SessionPlacement } from '../agentctl/executor';
import type { Logger } from '../../platform/logger/logger';
import type { Stores } from '../../platform/store/unit-of-work';
import type { AttachedSet } from '../../catalogue/repositories/provider-set';
import type { AgentSessionState, LiveRevision } from '../sessions/agent-session';
import type { DesiredRevision } from '../sessions/store/session-fan-out-writes';
import type { ProviderPusher, PushesInFlight, PushTarget } from './provider-pusher';
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
  /** The task's attached repositories after the change, in attach order (the provider set's source). */
  repositoryIds: string[];
  sessions: PlannedSession[];
}

export interface ProviderRefreshServiceDeps {
  pusher: ProviderPusher;
  scheduler: RefreshScheduler;
  logger: Logger;
}

/** The plan's sessions a push goes to: settled ones (running or waiting for input). */
function settled(plan: RefreshPlan): PlannedSession[] {
  return plan.sessions.filter((session) => isSettledLive(session.state));
}

/** The pushes of the plan's settled sessions whose set changed. */
function targetsOf(plan: RefreshPlan): PushTarget[] {
  return settled(plan)
    .filter((session) => session.bumped)
    .map((session) => ({ session: session.placement, providers: session.providers, revision: session.revision }));
}

/**
 * Live provider refresh after a committed change to a task's sources: inside the change's
 * transaction, one recomputation and one desired-revision bump per live session whose set changed;
 * after the commit, the settled ones pushed on each agentctl's StreamProviderUpdates stream. A failed push keeps
 * agentctl's older, smaller set (fail closed) and hands the session to the reconciler.
 */
export class ProviderRefreshService {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly deps: ProviderRefreshServiceDeps) {}

  /**
   * Call inside the transaction that changed the task's sources, with what the caller read there under
   * its event-order lock: the task's attached set after the change and its live sessions. Bumps the
   * desired revision of each live session whose set changed.
   */
  async plan(
    stores: Stores,
    taskId: string,
    now: string,
    { providers, repositoryIds }: AttachedSet,
    live: readonly LiveRevision[],
  ): Promise<RefreshPlan> {
    const sessions: PlannedSession[] = [];
    const bumped: DesiredRevision[] = [];
    for (const session of live) {
      const decision = decideProviderRefresh({ revision: session.revision, providers: session.providers }, providers);
      if (decision.kind === 'bump') bumped.push({ id: session.id, revision: decision.revision });
      sessions.push({
        sessionId: session.id,
        placement: {
          id: session.id,
          executor: session.executor,
          agentctlAddress: session.agentctlAddress,
          agentctlReplica: session.agentctlReplica,
        },
        state: session.state,
        revision: decision.kind === 'bump' ? decision.revision : session.revision,
        providers: decision.kind === 'bump' ? decision.providers : [...session.providers],
        bumped: decision.kind === 'bump',
      });
    }
    // Every bump moves to the same set: the task's, as decideProviderRefresh normalizes it.
    if (bumped.length > 0) await stores.sessions.updateDesiredMany(bumped, normalizeProviderSet(providers), now);
    return { taskId, providers, repositoryIds, sessions };
  }

  /**
   * Starts the pushes without waiting for agentctl and resolves once their calls are on their streams:
   * each session it pushed to is `dispatched`; what agentctl acknowledged is recorded on the session
   * (`applied_revision`, a tools.changed event) when its answer comes, a failure as with push().
   */
  async dispatch(plan: RefreshPlan): Promise<RefreshSummary> {
    const pushes = await this.deps.pusher.send(targetsOf(plan));
    const recording = this.record(plan, pushes).catch((err: unknown) =>
      this.deps.logger.error({ err, taskId: plan.taskId }, 'provider refresh failed'),
    );
    this.inFlight.add(recording);
    void recording.finally(() => this.inFlight.delete(recording));
    const results = settled(plan).map((session): SessionRefreshResult => ({
      sessionId: session.sessionId,
      status: session.bumped ? 'dispatched' : 'not_needed',
      revision: session.revision,
    }));
    const dispatched = results.some((result) => result.status === 'dispatched');
    return { status: dispatched ? 'dispatched' : 'not_needed', sessions: results };
  }

  /** Resolves once every dispatched push has been answered and recorded (shutdown waits for it). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Call after the commit. Settled sessions only (running or waiting for input): a session still
   * starting is caught up when it leaves starting (after CreateSession, or at agent_started), which
   * sees the bumped revision.
   */
  async push(plan: RefreshPlan): Promise<RefreshSummary> {
    return this.record(plan, await this.deps.pusher.send(targetsOf(plan)));
  }

  /** What came of the plan's pushes, once agentctl answered (retries handed to the scheduler). */
  private async record(plan: RefreshPlan, pushes: PushesInFlight): Promise<RefreshSummary> {
    const pushed = new Map<string, SessionRefreshResult>();
    for (const { retry, ...result } of await this.deps.pusher.record(pushes)) {
      if (retry) this.deps.scheduler.schedule(result.sessionId);
      pushed.set(result.sessionId, result);
    }
    const results = settled(plan).map(
      (session): SessionRefreshResult =>
        pushed.get(session.sessionId) ?? {
          sessionId: session.sessionId,
          status: 'not_needed',
          revision: session.revision,
        },
    );
    const summary = summarizeRefresh(results);
    this.deps.logger.info(
      { taskId: plan.taskId, providers: plan.providers, status: summary.status },
      'providers refreshed',
    );
    return summary;
  }
}
