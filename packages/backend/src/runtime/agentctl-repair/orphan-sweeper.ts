import type { Replicas } from '../../platform/cluster/replicas';
import type { Agentctls, ReachedAgentctl } from '../agentctl/agentctls';
import { agentctlKey } from '../agentctl/executor';
import type { Logger } from '../../platform/logger/logger';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import { isEnded } from '../sessions/session-lifecycle';

export interface OrphanSweeperDeps {
  uow: UnitOfWork;
  /** Every agentctl up is swept. */
  agentctls: Agentctls;
  logger: Logger;
  /** Delays of the follow-up sweeps after an ambiguous launch failure. */
  followUpDelaysMs: readonly number[];
  /** An agentctl is swept by the replica holding "orphans:<address>" (others skip it). */
  replicas: Pick<Replicas, 'once'>;
}

/**
 * Stops runtime sessions agentctl holds although the backend recorded them as ended (failed, cancelled,
 * completed: agentctl must not hold those) or not at all. They appear when a CreateSession times out in the backend but still runs in agentctl (a gRPC
 * deadline is ambiguous): nobody holds their token, and a later agent runtime would keep a process.
 */
export class OrphanSweeper {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<string[]>>();
  private stopping = false;

  constructor(private readonly deps: OrphanSweeperDeps) {}

  /** One pass over what every agentctl up holds; resolves the ids it stopped (none once stopping). */
  async sweep(): Promise<string[]> {
    if (this.stopping) return [];
    const pass = this.sweepAll();
    this.running.add(pass);
    try {
      return await pass;
    } finally {
      this.running.delete(pass);
    }
  }

  private async sweepAll(): Promise<string[]> {
    const stopped: string[] = [];
    for (const agentctl of this.deps.agentctls.up()) {
      stopped.push(...(await this.sweepClaimed(agentctl)));
    }
    if (stopped.length > 0) this.deps.logger.warn({ sessionIds: stopped }, 'stopped orphaned runtime sessions');
    return stopped;
  }

  private async sweepClaimed(agentctl: ReachedAgentctl): Promise<string[]> {
    const name = `orphans:${agentctlKey(agentctl.endpoint)}`;
    const outcome = await this.deps.replicas.once(name, () => this.sweepOne(agentctl));
    return outcome.ran ? outcome.value : []; // another replica sweeps it now
  }

  /**
   * Held by this agentctl but ended, unknown, or recorded on another agentctl that is up (resumed
   * elsewhere). One recorded on an agentctl that is gone is left alone: the repair on attach may be
   * moving it here right now (it restores first, then records the new address). StopSession goes to
   * this agentctl, never to the one the row records.
   */
  private async sweepOne({ endpoint, client }: ReachedAgentctl): Promise<string[]> {
    const stopped: string[] = [];
    const runtimes = await client.listSessions();
    // Read after the list: a session agentctl listed had its row written before its CreateSession.
    const rows = await this.deps.uow.read.sessions.findByIds(runtimes.map((runtime) => runtime.config.sessionId));
    for (const runtime of runtimes) {
      const sessionId = runtime.config.sessionId;
      const row = rows.get(sessionId);
      const recordedOn = row?.agentctlAddress ?? null;
      const elsewhere =
        recordedOn !== null &&
        recordedOn !== endpoint.grpcAddress &&
        this.deps.agentctls.ownerOf(recordedOn) !== undefined;
      if (row !== undefined && !isEnded(row.state) && !elsewhere) continue;
      if (await client.stopSession(sessionId)) stopped.push(sessionId);
    }
    return stopped;
  }

  /** After a launch whose outcome in agentctl is unknown: sweep a few times as the late call may land. */
  sweepSoon(): void {
    for (const delay of this.deps.followUpDelaysMs) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.sweep().catch((err: unknown) => this.deps.logger.warn({ err }, 'orphan sweep failed'));
      }, delay);
      timer.unref();
      this.timers.add(timer);
    }
  }

  /** No new pass starts; resolves once the passes under way ended (before the agentctl clients close). */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }
}
