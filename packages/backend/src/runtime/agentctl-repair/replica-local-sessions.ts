import type { Replicas, Sweeps } from '../../platform/cluster/replicas';
import type { Logger } from '../../platform/logger/logger';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import type { AgentSession } from '../sessions/agent-session';
import { isEnded, isLive } from '../sessions/session-lifecycle';

export interface ReplicaLocalSessionsDeps {
  uow: UnitOfWork;
  logger: Logger;
  /** Fails a session still on that agentctl, with the reason (AgentctlLossHandler.handle); true when it did. */
  fail: (session: AgentSession, reason: string) => Promise<boolean>;
  /** This backend's local-agentctl home (its data dir's backend id); undefined: it has none of its own. */
  home: string | undefined;
  replicas: Pick<Replicas, 'claim' | 'subscribe' | 'sweepLeftovers' | 'timing'>;
  /** The homes whose `home:` lease has not expired now: the backends running there. */
  liveHomes: () => Promise<ReadonlySet<string>>;
  /** Pushes the session's desired providers now (SessionReconciler.reconcileSoon). */
  reconcile: (sessionId: string) => void;
  /** Drains the session's queue (PromptDrainer.kick). */
  kick: (sessionId: string) => Promise<void>;
  /** StopSession on this replica's agentctl (RuntimeSessionControl.stop). */
  stopRuntime: (session: AgentSession) => Promise<unknown>;
  /** Brings every session behind its desired revision up to date (a signal may have been missed). */
  catchUp: () => Promise<unknown>;
}

/** Why a session fails when the backend whose local agentctl held it is gone. */
export function replicaGoneReason(home: string): string {
  return `backend ${home}, whose local agentctl held this session, is gone; resume the session`;
}

/** The lease a running backend renews for its home: `home:<backend id>`. */
export const HOME_LEASE_PREFIX = 'home:';

/**
 * Sessions on a backend's own local agentctl (docs/replicas.md), named by its home (the data dir's
 * backend id, so a backend restarted on its data dir keeps them). Only that backend reaches the
 * agentctl, so the others hand it their work with a `session` signal: here it is done (providers pushed,
 * the queue drained, the runtime of a session they stopped stopped). Every running replica renews its
 * `home:` lease and sweeps for sessions whose home has none (its backend is gone: within the lease TTL
 * plus one sweep): they fail with a reason naming it. One process never sweeps and is never signalled.
 */
export class ReplicaLocalSessions {
  private sweeps: Sweeps | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly deps: ReplicaLocalSessionsDeps) {}

  start(): void {
    const { replicas, logger } = this.deps;
    this.unsubscribe ??= replicas.subscribe('session', {
      signal: (sessionId) => {
        this.serve(sessionId).catch((err: unknown) =>
          logger.error({ err, sessionId }, 'forwarded session work failed'),
        );
      },
      resync: () => {
        this.deps.catchUp().catch((err: unknown) => logger.error({ err }, 'catching up after missed signals failed'));
      },
    });
    this.sweeps ??= replicas.sweepLeftovers(() => this.sweepLost());
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.sweeps?.stop();
  }

  /**
   * Takes (or renews) this backend's `home:` lease. At start, before anything is served: a session placed
   * on its agentctl before the lease exists would look like a gone backend's to the other replicas' sweeps.
   */
  async claimHome(): Promise<void> {
    const { home, replicas } = this.deps;
    if (home !== undefined) await replicas.claim(HOME_LEASE_PREFIX + home, replicas.timing.ttlMs);
  }

  /** Another replica changed a session this replica's agentctl holds: act on the row as it stands now. */
  async serve(sessionId: string): Promise<void> {
    const session = await this.deps.uow.read.sessions.findById(sessionId);
    if (session === undefined || this.deps.home === undefined || session.agentctlReplica !== this.deps.home) return;
    if (isEnded(session.state)) {
      await this.deps.stopRuntime(session);
      return;
    }
    if (!isLive(session.state)) return;
    if (session.appliedRevision < session.revision) this.deps.reconcile(sessionId);
    await this.deps.kick(sessionId);
  }

  /** Renews this backend's home, then fails the live sessions of every home that is gone; resolves their ids. Never rejects. */
  async sweepLost(): Promise<string[]> {
    const { uow, logger, home } = this.deps;
    try {
      await this.claimHome();
      const running = new Set(await this.deps.liveHomes());
      if (home !== undefined) running.add(home);
      const orphaned = await uow.read.sessions.listLiveOnReplicasOtherThan([...running]);
      const failed: string[] = [];
      for (const session of orphaned) {
        if (await this.deps.fail(session, replicaGoneReason(session.agentctlReplica ?? ''))) failed.push(session.id);
      }
      if (failed.length > 0) logger.warn({ sessions: failed }, 'sessions of a backend that is gone failed');
      return failed;
    } catch (err) {
      logger.error({ err }, 'sweep for sessions of backends that are gone failed');
      return [];
    }
  }
}
