import { LeftoverSweeper, type Replicas } from '../../platform/cluster/replicas';
import type { Agentctls } from '../agentctl/agentctls';
import type { Logger } from '../../platform/logger/logger';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import type { BootReconciler } from './boot-reconcile';

export interface StartSweeperDeps {
  uow: UnitOfWork;
  clock: () => Date;
  agentctls: Pick<Agentctls, 'find'>;
  reconciler: Pick<BootReconciler, 'repairCreated' | 'repairStarting'>;
  /** The sweeps run every renew interval where replicas share the database, never in one process. */
  replicas: Pick<Replicas, 'sweepLeftovers'>;
  /** A session unchanged for longer than this while created or starting is a candidate (the lease TTL). */
  staleMs: number;
  logger: Logger;
}

/**
 * Several replicas: a replica that dies while launching or resuming a session leaves it `created` or
 * `starting`, and no event will ever come for it. Its launch lease, renewed while the start runs, is
 * free once the starter is gone (at once with presence, else within a TTL). Every renew interval each
 * replica repairs the sessions left created or starting longer than `staleMs` as boot does, each under
 * its launch lease (one replica at a time, never one being started): a created session fails as never
 * started; a starting one is compared with agentctl (recorded as started if the start landed, failed
 * if not). A session starting slowly on a live replica costs one lease claim per sweep and is left
 * alone. One process never sweeps: its boot reconcile repairs what its predecessor left.
 */
export class StartSweeper extends LeftoverSweeper {
  constructor(private readonly deps: StartSweeperDeps) {
    super(deps.replicas);
  }

  /** One sweep; resolves the sessions it failed. Never rejects (failures are logged). */
  async sweep(): Promise<string[]> {
    const { uow, clock, logger } = this.deps;
    try {
      const before = new Date(clock().getTime() - this.deps.staleMs).toISOString();
      const stale = (await uow.read.sessions.listByStates(['created', 'starting'])).filter(
        (session) => session.updatedAt < before,
      );
      const failed: string[] = [];
      for (const session of stale) {
        if (this.stopped) break;
        failed.push(...(await this.repair(session.id, session.state === 'created')));
      }
      if (failed.length > 0) logger.info({ sessions: failed }, 'sessions a gone replica left unstarted failed');
      return failed;
    } catch (err) {
      logger.error({ err }, 'start sweep failed');
      return [];
    }
  }

  /** The sessions it failed; a starting session whose agentctl is not reached from here is left to others. */
  private async repair(sessionId: string, created: boolean): Promise<string[]> {
    const { reconciler, uow, agentctls, logger } = this.deps;
    if (created) return (await reconciler.repairCreated(sessionId)).failed;
    const session = await uow.read.sessions.findById(sessionId);
    if (session === undefined || agentctls.find(session) === undefined) return [];
    try {
      return (await reconciler.repairStarting(sessionId)).failed;
    } catch (err) {
      logger.warn({ err, sessionId }, 'unstarted session not repaired: agentctl could not be asked');
      return [];
    }
  }
}
