import { LeftoverSweeper, type Replicas } from '../../platform/cluster/replicas';
import type { Agentctls } from '../agentctl/agentctls';
import type { Logger } from '../../platform/logger/logger';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import type { BootReconciler } from './boot-reconcile';

export interface TurnSweeperDeps {
  uow: UnitOfWork;
  clock: () => Date;
  agentctls: Pick<Agentctls, 'find'>;
  reconciler: Pick<BootReconciler, 'reconcileOne'>;
  /** The sweeps run every renew interval where replicas share the database, never in one process. */
  replicas: Pick<Replicas, 'claimMany' | 'release' | 'sweepLeftovers' | 'timing'>;
  /** A prompt waiting (queued or in flight) longer than this makes its session a candidate. */
  staleMs: number;
  logger: Logger;
}

/**
 * Several replicas: a replica that dies can leave a turn half done, and no event will ever come for
 * it: a prompt it claimed (dispatched) but never sent, a turn_ended agentctl sent down its Attach
 * stream just as it died, or prompts queued behind a drain it had claimed. Every renew interval each
 * replica looks for sessions whose prompts have waited longer than `staleMs`, claims them
 * (`turns:<session>`) and reconciles each with agentctl as boot does: a finished turn is settled, a
 * prompt agentctl never saw is sent again with its id (never delivered twice), an idle queue is
 * kicked. A long turn still running costs one GetSession per sweep and changes nothing. One process
 * never sweeps (Replicas.sweepLeftovers).
 */
export class TurnSweeper extends LeftoverSweeper {
  constructor(private readonly deps: TurnSweeperDeps) {
    super(deps.replicas);
  }

  /** One sweep; resolves the sessions it reconciled. Never rejects (failures are logged). */
  async sweep(): Promise<string[]> {
    const { uow, clock, replicas, logger } = this.deps;
    try {
      const before = new Date(clock().getTime() - this.deps.staleMs).toISOString();
      const candidates = await uow.read.promptQueue.sessionsWaitingSince(before);
      if (candidates.length === 0 || this.stopped) return [];
      const names = candidates.map((id) => `turns:${id}`);
      const held = await replicas.claimMany(names, replicas.timing.ttlMs);
      const reconciled: string[] = [];
      for (const sessionId of candidates) {
        if (this.stopped || !held.has(`turns:${sessionId}`)) continue;
        if (await this.reconcile(sessionId)) reconciled.push(sessionId);
        await replicas.release(`turns:${sessionId}`).catch(() => undefined); // it expires anyway
      }
      if (reconciled.length > 0) logger.info({ sessions: reconciled }, 'waiting turns reconciled with agentctl');
      return reconciled;
    } catch (err) {
      logger.error({ err }, 'turn sweep failed');
      return [];
    }
  }

  /** False when the session's agentctl is not reached from here (its loss is handled elsewhere). */
  private async reconcile(sessionId: string): Promise<boolean> {
    const session = await this.deps.uow.read.sessions.findById(sessionId);
    if (session === undefined || session.launchConfig.agent === null) return false;
    if (this.deps.agentctls.find(session) === undefined) return false;
    try {
      await this.deps.reconciler.reconcileOne(sessionId);
      return true;
    } catch (err) {
      this.deps.logger.warn({ err, sessionId }, 'waiting turn not reconciled: agentctl could not be asked');
      return false;
    }
  }
}
