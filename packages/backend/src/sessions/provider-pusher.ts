import { applyAgentGone } from '../turns/turn-outcome';
import { AppError, isAppError, type Provider } from '@kandev/protocol';
import type { AgentctlConnector } from '../executors/agentctl-client';
import type { Executor } from '../executors/executor';
import type { Logger } from '../logger';
import type { UnitOfWork } from '../store/unit-of-work';
import type { Acknowledged } from './session-store';
import {
  aheadMessage,
  compareHeldRevision,
  LOST_PROMPT_ERROR,
  LOST_SESSION_MESSAGE,
  pushFailureKind,
  type SessionRefreshResult,
} from './session-refresh';

/** One session's desired provider set, at its desired revision. */
export interface PushTarget {
  sessionId: string;
  providers: readonly Provider[];
  revision: number;
}

/** A push outcome; `retry` says whether trying again later can help. */
export interface PushResult extends SessionRefreshResult {
  retry: boolean;
}

export interface ProviderPusherDeps {
  uow: UnitOfWork;
  clock: () => Date;
  executor: Executor;
  agentctl: AgentctlConnector;
  logger: Logger;
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
    const endpoint = this.deps.executor.current();
    if (endpoint === undefined) return this.fail(target, new AppError('unavailable', 'agentctl is not running'));
    const client = this.deps.agentctl.clientFor(endpoint);
    try {
      let held = (await client.getSession(target.sessionId)).config;
      if (compareHeldRevision(held.revision, target.revision) === 'behind') {
        const result = await client.updateProviders(target.sessionId, target.providers, target.revision);
        held = result.session.config;
        this.deps.logger.debug(
          {
            sessionId: target.sessionId,
            revision: target.revision,
            outcome: result.outcome,
            toolsChanged: result.toolsChanged,
          },
          'providers pushed',
        );
      }
      return await this.acknowledge(target, { revision: held.revision, providers: held.providers });
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
    const now = this.deps.clock().toISOString();
    const desired = await this.deps.uow.transaction(async (stores) => {
      const session = await stores.sessions.findById(target.sessionId);
      if (session !== undefined && compareHeldRevision(held.revision, session.revision) !== 'ahead') {
        await stores.sessions.recordApplied(target.sessionId, held, now);
      }
      return session?.revision ?? target.revision;
    });
    if (compareHeldRevision(held.revision, desired) !== 'ahead') {
      return { sessionId: target.sessionId, status: 'applied', revision: target.revision, retry: false };
    }
    const reason = aheadMessage(held.revision, desired);
    await this.deps.uow.read.sessions.recordRefreshError(target.sessionId, reason, now);
    this.deps.logger.warn({ sessionId: target.sessionId, held: held.revision, desired }, 'agentctl is ahead');
    return { sessionId: target.sessionId, status: 'failed', revision: target.revision, reason, retry: false };
  }

  /** Records a failed refresh; a session agentctl no longer holds is marked failed (resume it). */
  async fail(target: PushTarget, error: unknown): Promise<PushResult> {
    const failure = asAppError(error);
    const kind = pushFailureKind(failure.code);
    const now = this.deps.clock().toISOString();
    const reason = kind === 'lost' ? LOST_SESSION_MESSAGE : `provider refresh failed: ${failure.message}`;
    await this.deps.uow.transaction(async (stores) => {
      if (kind === 'lost') {
        // The same ending as any other lost agent: session failed, its prompt in flight failed (the queue
        // behind it waits for a resume), its pending parent question stale.
        const gone = { kind: 'lost' as const, reason, promptError: LOST_PROMPT_ERROR, cleanExit: false };
        await applyAgentGone(stores, target.sessionId, gone, now);
      }
      await stores.sessions.recordRefreshError(target.sessionId, reason, now);
    });
    this.deps.logger.warn(
      { sessionId: target.sessionId, revision: target.revision, code: failure.code, kind },
      'provider refresh failed',
    );
    return {
      sessionId: target.sessionId,
      status: 'failed',
      revision: target.revision,
      reason,
      retry: kind === 'retry',
    };
  }
}
