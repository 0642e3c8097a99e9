import { LEASE_TIMING_DEFAULTS, type LeaseTiming } from './attach-lease';
import type { Claimed } from './leases';
import { InProcessReplicaSignals } from './replica-signals';
import type { Replicas, Sweeps } from './replicas';

const NO_SWEEPS: Sweeps = { stop: () => Promise.resolve() };

/**
 * The replica port of a backend alone on its database (SQLite: one process owns the file). Every claim
 * is granted at once and nothing is written, so it behaves exactly as before replicas, restarts included
 * (a crashed predecessor's leases would otherwise hold work back for a TTL). Signals are told to no other
 * replica: they reach this process's own listeners (event streams, held questions) and nothing else.
 * No sweep runs.
 */
export class SingleProcess extends InProcessReplicaSignals implements Replicas {
  readonly shared = false;
  readonly timing: LeaseTiming;

  constructor(replicaId: string, options: { timing?: LeaseTiming; onError?: (error: unknown) => void } = {}) {
    super(replicaId, options.onError);
    this.timing = options.timing ?? LEASE_TIMING_DEFAULTS;
  }

  claim(): Promise<boolean> {
    return Promise.resolve(true);
  }

  claimMany(names: readonly string[]): Promise<Set<string>> {
    return Promise.resolve(new Set(names));
  }

  renew(): Promise<boolean> {
    return Promise.resolve(true);
  }

  release(): Promise<void> {
    return Promise.resolve();
  }

  releaseAll(): Promise<void> {
    return Promise.resolve();
  }

  deleteExpired(): Promise<number> {
    return Promise.resolve(0);
  }

  async once<T>(_name: string, work: () => Promise<T>): Promise<Claimed<T>> {
    return { ran: true, value: await work() };
  }

  sweepLeftovers(): Sweeps {
    return NO_SWEEPS;
  }
}
