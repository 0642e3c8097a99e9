import type { LeaseTiming } from './attach-lease';
import type { Claimed, WorkClaims } from './leases';
import type { ReplicaPresence, ReplicaSignals } from './replica-signals';

export interface OnceOptions {
  /** How long the claim holds if it is never released (default: the lease TTL, `timing.ttlMs`). */
  ttlMs?: number;
  /**
   * Handed the release instead of it being awaited (withClaim). Never called by one process: it
   * claimed nothing, so nothing is queued where the caller would queue the release.
   */
  releaseAfter?: (release: () => Promise<void>) => void;
  /**
   * The holder renews the claim every renew interval until it is released (for work of any length,
   * such as a launch): held as long as the work lasts, and at most a TTL once its holder died. `ttlMs`
   * is then the TTL of each renewal.
   */
  renewWhileHeld?: boolean;
}

/** Sweeps that repeat until stopped; `stop` waits for the one under way. */
export interface Sweeps {
  stop(): Promise<void>;
}

/**
 * The replica machinery, the one port every service that cares gets (docs/replicas.md). Backends that
 * share a database claim work that must happen once (leases), wake each other after commits (signals)
 * and sweep up what a replica that died left behind. One process does none of that (SingleProcess):
 * every claim is granted at once, signals reach only its own listeners, and no sweep runs. Services are
 * written once against this port and never ask which version they got; the composition root picks it.
 */
export interface Replicas extends WorkClaims, ReplicaSignals, ReplicaPresence {
  /** Whether other replicas may share the database: work is claimed by lease (GET /api/replicas). */
  readonly shared: boolean;
  /** How long a lease runs and how often its holder renews it (KANDEV_REPLICA_LEASE_*). */
  readonly timing: LeaseTiming;
  /**
   * Runs `work` holding `name`, then frees it; resolves `{ ran: false }` without running it when another
   * replica holds the name. One process: runs it, nothing else.
   */
  once<T>(name: string, work: () => Promise<T>, options?: OnceOptions): Promise<Claimed<T>>;
  /**
   * Runs `sweep` every renew interval, one run at a time, until stopped: the search for work a replica
   * that died left behind, for which no event will ever come. One process: never runs it (no other
   * replica can leave any, and what its own predecessor left is the boot reconcile's). `sweep` logs its
   * own failures.
   */
  sweepLeftovers(sweep: () => Promise<unknown>): Sweeps;
}

/**
 * A sweep for what a gone replica left behind, run every renew interval through
 * `Replicas.sweepLeftovers` (never in one process): started once, stopped for good.
 */
export abstract class LeftoverSweeper {
  private sweeps: Sweeps | undefined;
  /** Set by `stop`: a sweep under way checks it between items. */
  protected stopped = false;

  constructor(private readonly replicas: Pick<Replicas, 'sweepLeftovers'>) {}

  start(): void {
    if (this.stopped || this.sweeps !== undefined) return;
    this.sweeps = this.replicas.sweepLeftovers(() => this.sweep());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.sweeps?.stop();
  }

  /** One sweep; never rejects (failures are logged). */
  abstract sweep(): Promise<unknown>;
}
