import { AppError, isAppError, type Provider } from '@kandev/protocol';
import type { AgentctlApi, ProviderUpdateOutcome } from '../agentctl/agentctl-client';
import { PROVIDER_UPDATES_PER_MESSAGE } from '../agentctl/provider-updates';
import type { Agentctls } from '../agentctl/agentctls';
import { onSameAgentctl, type SessionPlacement } from '../agentctl/executor';
import type { Logger } from '../../platform/logger/logger';
import type { BackendMetrics } from '../../platform/metrics/backend-metrics';
import type { AgentGone } from '../sessions/agent-session';
import type { Stores, UnitOfWork } from '../../platform/store/unit-of-work';
import type { Acknowledged } from '../sessions/store/session-store';
import { chunks, type ToolListEntry } from '../sessions/session-events';
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
 * Ends a session whose agent is gone, in the caller's transaction: runtime/turns/turn-outcome.ts's
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
  /** Counts and times provider updates by outcome. */
  metrics?: Pick<BackendMetrics, 'updateProvidersBatch'>;
}

function asAppError(error: unknown): AppError {
  return isAppError(error) ? error : new AppError('unavailable', `agentctl failed: ${String(error)}`);
}

/** A target that reached agentctl and what agentctl holds now, to be recorded. */
interface Reached {
  index: number;
  target: PushTarget;
  held: Acknowledged;
}

/** A target in a call, by its place in the targets. */
interface Member {
  index: number;
  target: PushTarget;
}

/** One StreamProviderUpdates call on its stream: its members, and agentctl's answer to come (or why none). */
interface PushCall {
  members: readonly Member[];
  answer: Promise<{ outcomes: ProviderUpdateOutcome[] } | { error: unknown }>;
}

/** Pushes on their way (ProviderPusher.send): what ProviderPusher.record waits for and records. */
export interface PushesInFlight {
  count: number;
  calls: PushCall[];
  /** Targets whose agentctl could not be reached at all. */
  failed: Failed[];
  /** Targets on another replica's own local agentctl: that replica was asked to push them. */
  forwarded: Forwarded[];
}

/** A target handed to the replica whose local agentctl holds its session. */
interface Forwarded {
  index: number;
  target: PushTarget;
  replica: string;
}

/** A target whose push failed, with why. */
interface Failed {
  index: number;
  target: PushTarget;
  error: unknown;
}

/**
 * Brings sessions' provider sets in agentctl to their desired revisions and records what came of it
 * on the session rows: success moves the acknowledged revision; a failure records why (agentctl keeps
 * its older set, unless a push that outlived its deadline lands later). Never throws for agentctl's sake.
 */
export class ProviderPusher {
  constructor(private readonly deps: ProviderPusherDeps) {}

  /** One session: syncMany of one. */
  async sync(target: PushTarget): Promise<PushResult> {
    const [result] = await this.syncMany([target]);
    if (result === undefined) throw new Error('syncMany returned no result');
    return result;
  }

  /**
   * Sends each target's revision straight to its agentctl, on its StreamProviderUpdates stream in calls
   * of at most PROVIDER_UPDATES_PER_MESSAGE, and records each call's acknowledgements in one
   * transaction. agentctl applies only a revision above the one it holds (STALE otherwise) and answers
   * with what it holds, so no probe is needed: a push whose deadline passed may still land later, but
   * it carries a revision this backend issued, never one past the desired one (docs/architecture.md,
   * provider flow).
   */
  async syncMany(targets: readonly PushTarget[]): Promise<PushResult[]> {
    return this.record(await this.send(targets));
  }

  /**
   * syncMany's first half: resolves once every call is on its agentctl's stream (or failed to go). A
   * call carries at most one message's updates, so each answer is recorded on its own as it comes.
   */
  async send(targets: readonly PushTarget[]): Promise<PushesInFlight> {
    const failed: Failed[] = [];
    const forwarded: Forwarded[] = [];
    const calls = await Promise.all(
      this.groupByAgentctl(targets, failed, forwarded).flatMap(({ client, members }) =>
        chunks(members, PROVIDER_UPDATES_PER_MESSAGE).map((message) => this.call(client, message)),
      ),
    );
    return { count: targets.length, calls, failed, forwarded };
  }

  /**
   * syncMany's second half: records each call's answer as it comes, in a transaction of its own (never
   * throws for agentctl's sake).
   */
  async record(pushes: PushesInFlight): Promise<PushResult[]> {
    const results: PushResult[] = new Array<PushResult>(pushes.count);
    const failed = [...pushes.failed];
    for (const { members, answer } of pushes.calls) {
      const answered = await answer;
      if ('error' in answered) {
        for (const member of members) failed.push({ ...member, error: answered.error });
        continue;
      }
      const reached: Reached[] = [];
      answered.outcomes.forEach((outcome, i) => {
        const member = members[i];
        if (member === undefined) return;
        if (!outcome.ok) return failed.push({ ...member, error: outcome.error });
        const { outcome: kind, toolsChanged, ...held } = outcome.result;
        this.deps.logger.debug(
          { sessionId: member.target.session.id, revision: member.target.revision, outcome: kind, toolsChanged },
          'providers pushed',
        );
        reached.push({ ...member, held });
      });
      for (const [index, result] of await this.acknowledgeMany(reached)) results[index] = result;
    }
    for (const { index, target, error } of failed) results[index] = await this.fail(target, error);
    for (const { index, target, replica } of pushes.forwarded) {
      const reason = `pushed by replica ${replica}, whose local agentctl holds the session`;
      results[index] = {
        sessionId: target.session.id,
        status: 'dispatched',
        revision: target.revision,
        reason,
        retry: false,
      };
    }
    return results;
  }

  private groupByAgentctl(
    targets: readonly PushTarget[],
    failed: Failed[],
    forwarded: Forwarded[],
  ): { client: AgentctlApi; members: Member[] }[] {
    const groups = new Map<AgentctlApi, Member[]>();
    const { agentctls } = this.deps;
    targets.forEach((target, index) => {
      const replica = agentctls.servedElsewhere(target.session);
      if (replica !== undefined) {
        agentctls.forward(target.session); // after the commit that moved the desired revision: it reads that
        forwarded.push({ index, target, replica });
        return;
      }
      try {
        const client = this.deps.agentctls.forSession(target.session);
        const members = groups.get(client) ?? [];
        members.push({ index, target });
        groups.set(client, members);
      } catch (error) {
        failed.push({ index, target, error });
      }
    });
    return [...groups].map(([client, members]) => ({ client, members }));
  }

  /** One agentctl's call, on its stream; a call that could not go is an answer that failed. */
  private async call(client: AgentctlApi, members: readonly Member[]): Promise<PushCall> {
    const updates = members.map(({ target }) => ({
      sessionId: target.session.id,
      providers: target.providers,
      revision: target.revision,
    }));
    try {
      const { answer } = await client.sendProviderUpdates(updates);
      const timed = this.deps.metrics?.updateProvidersBatch(updates.length, () => answer) ?? answer;
      return {
        members,
        answer: timed.then(
          (outcomes) => ({ outcomes }),
          (error: unknown) => ({ error }),
        ),
      };
    } catch (error) {
      return { members, answer: Promise.resolve({ error }) };
    }
  }

  /**
   * Records what agentctl holds, for every reached session in one transaction. At or below the desired
   * revision it is a revision this backend issued (also after a STALE answer to a late push); above
   * it, agentctl is ahead and only a resume (which rebuilds from the database) repairs it.
   */
  private async acknowledgeMany(reached: readonly Reached[]): Promise<Map<number, PushResult>> {
    if (reached.length === 0) return new Map();
    const now = this.deps.clock().toISOString();
    const ahead: { sessionId: string; held: number; desired: number }[] = [];
    const results = await this.deps.uow.transaction(async (stores) => {
      const recorded = new Map<number, PushResult>();
      const acknowledged = reached.map(({ target, held }) => ({ id: target.session.id, acknowledged: held }));
      const [rows, kept] = await Promise.all([
        stores.sessions.revisionsOf(acknowledged.map(({ id }) => id)),
        stores.sessions.keptToolListsOf(acknowledged),
      ]);
      const applied: ToolListEntry[] = [];
      for (const { index, target, held } of reached) {
        const sessionId = target.session.id;
        const row = rows.get(sessionId);
        const desired = row?.revision ?? target.revision;
        if (compareHeldRevision(held.revision, desired) !== 'ahead') {
          if (row !== undefined && row.appliedRevision <= held.revision) {
            applied.push({ id: sessionId, taskId: row.taskId, acknowledged: held });
          }
          recorded.set(index, { sessionId, status: 'applied', revision: target.revision, retry: false });
          continue;
        }
        const reason = aheadMessage(held.revision, desired);
        await stores.sessions.recordRefreshError(sessionId, reason, now);
        ahead.push({ sessionId, held: held.revision, desired });
        recorded.set(index, { sessionId, status: 'failed', revision: target.revision, reason, retry: false });
      }
      await stores.sessions.recordAppliedMany(applied, now, kept);
      return recorded;
    });
    for (const entry of ahead) this.deps.logger.warn(entry, 'agentctl is ahead');
    return results;
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
  return a.executor === b.executor && onSameAgentctl(a, b);
}
