import type { Replicas, Sweeps } from '../../platform/cluster/replicas';
import type { Logger } from '../../platform/logger/logger';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import type { AgentSession } from '../sessions/agent-session';
import type { SessionLanes } from '../sessions/session-lanes';
import { isEnded, isLive } from '../sessions/session-lifecycle';
import { applyAgentGone } from '../turns/turn-outcome';

export interface ReplicaLocalSessionsDeps {
  uow: UnitOfWork;
  clock: () => Date;
  lanes: SessionLanes;
  logger: Logger;
  replicas: Pick<Replicas, 'replicaId' | 'subscribe' | 'sweepLeftovers' | 'alive'>;
  /** The replicas holding a lease that has not expired now: a replica that renews any is running. */
  leaseHolders: () => Promise<ReadonlySet<string>>;
  /** Pushes the session's desired providers now (SessionReconciler.reconcileSoon). */
  reconcile: (sessionId: string) => void;
  /** Drains the session's queue (PromptDrainer.kick). */
  kick: (sessionId: string) => Promise<void>;
  /** StopSession on this replica's agentctl (RuntimeSessionControl.stop). */
  stopRuntime: (session: AgentSession) => Promise<unknown>;
  /** Brings every session behind its desired revision up to date (a signal may have been missed). */
  catchUp: () => Promise<unknown>;
}

/** Why a session fails when the replica whose local agentctl held it is gone. */
export function replicaGoneReason(replica: string): string {
  return `replica ${replica}, whose local agentctl held this session, is gone; resume the session`;
}

/**
 * Sessions on a replica's own local agentctl (docs/replicas.md). Only that replica reaches the agentctl,
 * so the others hand it their work with a `session` signal: here it is done (providers pushed, the queue
 * drained, the runtime of a session they stopped stopped). And every running replica sweeps for sessions
 * whose replica is gone (no presence and no lease left, so within the lease TTL plus one sweep): they
 * fail with a reason naming that replica. One process never sweeps and is never signalled by another.
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

  /** Another replica changed a session this replica's agentctl holds: act on the row as it stands now. */
  async serve(sessionId: string): Promise<void> {
    const session = await this.deps.uow.read.sessions.findById(sessionId);
    if (session === undefined || session.agentctlReplica !== this.deps.replicas.replicaId) return;
    if (isEnded(session.state)) {
      await this.deps.stopRuntime(session);
      return;
    }
    if (!isLive(session.state)) return;
    if (session.appliedRevision < session.revision) this.deps.reconcile(sessionId);
    await this.deps.kick(sessionId);
  }

  /** Fails the live sessions of every replica that is gone; resolves their ids. Never rejects. */
  async sweepLost(): Promise<string[]> {
    const { uow, replicas, logger } = this.deps;
    try {
      const running = new Set([...(await replicas.alive()), ...(await this.deps.leaseHolders())]);
      running.add(replicas.replicaId);
      const orphaned = await uow.read.sessions.listLiveOnReplicasOtherThan([...running]);
      const failed: string[] = [];
      for (const session of orphaned) {
        if (await this.fail(session)) failed.push(session.id);
      }
      if (failed.length > 0) logger.warn({ sessions: failed }, 'sessions of a replica that is gone failed');
      return failed;
    } catch (err) {
      logger.error({ err }, 'sweep for sessions of replicas that are gone failed');
      return [];
    }
  }

  private fail(session: AgentSession): Promise<boolean> {
    const replica = session.agentctlReplica ?? '';
    const reason = replicaGoneReason(replica);
    return this.deps.lanes.run(session.id, () =>
      this.deps.uow.transaction(async (stores) => {
        const row = await stores.sessions.findById(session.id);
        if (row === undefined || !isLive(row.state) || row.agentctlReplica !== replica) return false;
        const gone = { kind: 'lost', reason, promptError: reason, cleanExit: false } as const;
        const now = this.deps.clock().toISOString();
        return (await applyAgentGone(stores, session.id, gone, now)).state !== null;
      }),
    );
  }
}
