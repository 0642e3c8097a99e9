import { AppError, isAppError, type Provider } from '@kandev/protocol';
import type { Agentctls } from '../executors/agentctls';
import type { SessionPlacement } from '../executors/executor';
import type { Logger } from '../logger';
import type { BackendMetrics } from '../metrics/backend-metrics';
import type { AgentGone } from '../sessions/agent-session';
import type { Stores, UnitOfWork } from '../store/unit-of-work';
import type { Acknowledged } from '../sessions/session-store';
import {
  aheadMessage,
  compareHeldRevision,
  LOST_PROMPT_ERROR,
  LOST_SESSION_MESSAGE,
  pushFailureKind,
  type SessionRefreshResult,
} from './provider-refresh';

/** One session's desired provider set, at its desired revision. */
export interface PushTarget {
  /** The session as its row places it (the push goes to the agentctl recorded there). */
  session: SessionPlacement;
  providers: readonly Provider[];
  revision: number;
}

/** A push outcome; `retry` says whether trying again later can help. */
export interface PushResult extends SessionRefreshResult {
  retry: boolean;
}

/**
 * Ends a session whose agent is gone, in the caller's transaction: turns/turn-outcome.ts's
 * applyAgentGone (it also marks the session's parent questions stale), passed in by the composition
 * root because turns/ sits above providers/.
 */
export type ApplyAgentGone = (stores: Stores, sessionId: string, gone: AgentGone, now: string) => Promise<unknown>;

export interface ProviderPusherDeps {
  applyAgentGone: ApplyAgentGone;
  uow: UnitOfWork;
  clock: () => Date;
  agentctls: Agentctls;
  logger: Logger;
  /** Counts and times UpdateProviders by outcome. */
  metrics?: Pick<BackendMetrics, 'updateProviders'>;
}

function asAppError(error: unknown): AppError {
  return isAppError(error) ? error : new AppError('unavailable', `agentctl failed: ${String(error)}`);
}

/**
 * Brings one session's provider set in agentctl to its desired revision and records what came of it
 * on the session row: success moves the acknowledged revision; a failure leaves agentctl's older
 * (smaller) set in place and records why. Never throws for agentctl's sake.
 */
export class ProviderPusher {
  constructor(private readonly deps: ProviderPusherDeps) {}

  /**
   * Brings one session to `target`: asks agentctl what it holds, then sends UpdateProviders only when
   * it is behind. Asking first means a paused or unreachable agentctl fails the probe and is never
   * handed a mutation it might apply after this call gave up (a gRPC deadline is ambiguous: the server
   * may still run a call whose client stopped waiting); the probe also finds lost sessions and
   * agentctl being ahead without pushing.
   */
  async sync(target: PushTarget): Promise<PushResult> {
    const sessionId = target.session.id;
    try {
      const client = this.deps.agentctls.forSession(target.session);
      let state = await client.getSession(sessionId);
      let held = state.config;
      if (compareHeldRevision(held.revision, target.revision) === 'behind') {
        const send = () => client.updateProviders(sessionId, target.providers, target.revision);
        const result = await (this.deps.metrics?.updateProviders(send) ?? send());
        state = result.session;
        held = state.config;
        this.deps.logger.debug(
          {
            sessionId,
            revision: target.revision,
            outcome: result.outcome,
            toolsChanged: result.toolsChanged,
          },
          'providers pushed',
        );
      }
      const acknowledged = { revision: held.revision, providers: held.providers, toolNames: state.toolNames };
      return await this.acknowledge(target, acknowledged);
    } catch (error) {
      return this.fail(target, error);
    }
  }

  /**
   * Records what agentctl holds. At or below the desired revision it is a revision this backend
   * issued (also after a STALE answer to a late push); above it, agentctl is ahead and only a resume
   * (which rebuilds from the database) repairs it.
   */
  async acknowledge(target: PushTarget, held: Acknowledged): Promise<PushResult> {
    const sessionId = target.session.id;
    const now = this.deps.clock().toISOString();
    const desired = await this.deps.uow.transaction(async (stores) => {
      const session = await stores.sessions.findById(sessionId);
      if (session !== undefined && compareHeldRevision(held.revision, session.revision) !== 'ahead') {
        await stores.sessions.recordApplied(sessionId, held, now);
      }
      return session?.revision ?? target.revision;
    });
    if (compareHeldRevision(held.revision, desired) !== 'ahead') {
      return { sessionId, status: 'applied', revision: target.revision, retry: false };
    }
    const reason = aheadMessage(held.revision, desired);
    await this.deps.uow.read.sessions.recordRefreshError(sessionId, reason, now);
    this.deps.logger.warn({ sessionId, held: held.revision, desired }, 'agentctl is ahead');
    return { sessionId, status: 'failed', revision: target.revision, reason, retry: false };
  }

  /**
   * Records a failed refresh; a session agentctl no longer holds is marked failed (resume it). A push
   * goes where the caller's row placed the session: one resumed onto another agentctl since is not
   * lost, and is left to the reconciler (which reads it again) without recording anything.
   */
  async fail(target: PushTarget, error: unknown): Promise<PushResult> {
    const sessionId = target.session.id;
    const failure = asAppError(error);
    const kind = pushFailureKind(failure.code);
    const now = this.deps.clock().toISOString();
    const reason = kind === 'lost' ? LOST_SESSION_MESSAGE : `provider refresh failed: ${failure.message}`;
    const moved = await this.deps.uow.transaction(async (stores) => {
      if (kind === 'lost') {
        const row = await stores.sessions.findById(sessionId);
        if (row !== undefined && !samePlacement(row, target.session)) return true;
        // The same ending as any other lost agent: session failed, its prompt in flight failed (the queue
        // behind it waits for a resume), its pending parent question stale.
        const gone = { kind: 'lost' as const, reason, promptError: LOST_PROMPT_ERROR, cleanExit: false };
        await this.deps.applyAgentGone(stores, sessionId, gone, now);
      }
      await stores.sessions.recordRefreshError(sessionId, reason, now);
      return false;
    });
    if (moved) {
      this.deps.logger.info({ sessionId, revision: target.revision }, 'session moved to another agentctl; retrying');
      return { sessionId, status: 'failed', revision: target.revision, reason: MOVED_MESSAGE, retry: true };
    }
    this.deps.logger.warn(
      { sessionId, revision: target.revision, code: failure.code, kind },
      'provider refresh failed',
    );
    return { sessionId, status: 'failed', revision: target.revision, reason, retry: kind === 'retry' };
  }
}

const MOVED_MESSAGE = 'the session moved to another agentctl during the refresh; retrying';

function samePlacement(a: SessionPlacement, b: SessionPlacement): boolean {
  return a.executor === b.executor && a.agentctlAddress === b.agentctlAddress;
}
