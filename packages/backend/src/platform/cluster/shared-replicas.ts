import { AppError } from '@kandev/protocol';
import type { Knex } from 'knex';
import type { LeaseTiming } from './attach-lease';
import { type Claimed, type WorkClaims, withClaim } from './leases';
import type { ReplicaPresence, ReplicaSignals, Signal, SignalListener, SignalName } from './replica-signals';
import type { OnceOptions, Replicas, Sweeps } from './replicas';

export interface SharedReplicasDeps {
  /** Leases in the shared database (DatabaseLeases), under the same replica id as `signals`. */
  leases: WorkClaims;
  /** LISTEN/NOTIFY on PostgreSQL (in process where tests share one SQLite file), with presence. */
  signals: ReplicaSignals & ReplicaPresence;
  timing: LeaseTiming;
}

/**
 * The replica port of backends sharing one database: work is claimed in the `leases` table, signals go
 * to every replica, and leftovers of a replica that died are swept every renew interval.
 */
export class SharedReplicas implements Replicas {
  readonly shared = true;
  readonly replicaId: string;
  readonly timing: LeaseTiming;
  private readonly renewed: WorkClaims;

  constructor(private readonly deps: SharedReplicasDeps) {
    if (deps.signals.replicaId !== deps.leases.replicaId) {
      throw new AppError('internal', 'the leases and the signals must be of one replica');
    }
    this.replicaId = deps.leases.replicaId;
    this.timing = deps.timing;
    this.renewed = new RenewedClaims(deps.leases, deps.timing.renewMs);
  }

  claim(name: string, ttlMs: number): Promise<boolean> {
    return this.deps.leases.claim(name, ttlMs);
  }

  claimMany(names: readonly string[], ttlMs: number): Promise<Set<string>> {
    return this.deps.leases.claimMany(names, ttlMs);
  }

  renew(name: string, ttlMs: number): Promise<boolean> {
    return this.deps.leases.renew(name, ttlMs);
  }

  release(name: string): Promise<void> {
    return this.deps.leases.release(name);
  }

  releaseAll(): Promise<void> {
    return this.deps.leases.releaseAll();
  }

  deleteExpired(): Promise<number> {
    return this.deps.leases.deleteExpired();
  }

  once<T>(name: string, work: () => Promise<T>, options: OnceOptions = {}): Promise<Claimed<T>> {
    const ttlMs = options.ttlMs ?? this.timing.ttlMs;
    const claims = options.renewWhileHeld === true ? this.renewed : this.deps.leases;
    return withClaim(claims, name, ttlMs, work, options.releaseAfter);
  }

  sweepLeftovers(sweep: () => Promise<unknown>): Sweeps {
    let sweeping: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      sweeping = sweeping.then(() => sweep()).catch(() => undefined); // a failed sweep must not stop the next
    }, this.timing.renewMs);
    timer.unref();
    return {
      stop: async () => {
        clearInterval(timer);
        await sweeping;
      },
    };
  }

  publish(name: SignalName, payload?: string): void {
    this.deps.signals.publish(name, payload);
  }

  notifyStatement(db: Knex, signals: readonly Signal[]): Knex.Raw | undefined {
    return this.deps.signals.notifyStatement(db, signals);
  }

  deliver(signals: readonly Signal[]): void {
    this.deps.signals.deliver(signals);
  }

  subscribe(name: SignalName, listener: SignalListener): () => void {
    return this.deps.signals.subscribe(name, listener);
  }

  ready(): Promise<void> {
    return this.deps.signals.ready();
  }

  close(): Promise<void> {
    return this.deps.signals.close();
  }

  isAlive(replicaId: string): Promise<boolean> {
    return this.deps.signals.isAlive(replicaId);
  }

  alive(): Promise<string[]> {
    return this.deps.signals.alive();
  }
}

interface Renewal {
  timer?: NodeJS.Timeout;
  /** The renewal under way (a release waits for it). */
  renewing: Promise<unknown>;
}

/**
 * `leases` whose claims are renewed every `renewMs` until released (OnceOptions.renewWhileHeld). The
 * release waits for a renewal under way, and a renewal only extends a lease still held, so a released
 * lease is never written again.
 */
class RenewedClaims implements WorkClaims {
  readonly replicaId: string;
  private readonly renewals = new Map<string, Renewal>();

  constructor(
    private readonly leases: WorkClaims,
    private readonly renewMs: number,
  ) {
    this.replicaId = leases.replicaId;
  }

  async claim(name: string, ttlMs: number): Promise<boolean> {
    if (!(await this.leases.claim(name, ttlMs))) return false;
    const renewal: Renewal = { renewing: Promise.resolve() };
    renewal.timer = setInterval(() => {
      // A failed renewal is retried at the next interval; the lease runs a TTL from the last one.
      renewal.renewing = renewal.renewing.then(() => this.leases.renew(name, ttlMs)).catch(() => undefined);
    }, this.renewMs);
    renewal.timer.unref();
    clearInterval(this.renewals.get(name)?.timer); // claimed again while held: one renewal
    this.renewals.set(name, renewal);
    return true;
  }

  claimMany(names: readonly string[], ttlMs: number): Promise<Set<string>> {
    return this.leases.claimMany(names, ttlMs);
  }

  renew(name: string, ttlMs: number): Promise<boolean> {
    return this.leases.renew(name, ttlMs);
  }

  async release(name: string): Promise<void> {
    const renewal = this.renewals.get(name);
    if (renewal !== undefined) {
      this.renewals.delete(name);
      clearInterval(renewal.timer);
      await renewal.renewing;
    }
    await this.leases.release(name);
  }

  releaseAll(): Promise<void> {
    return this.leases.releaseAll();
  }

  deleteExpired(): Promise<number> {
    return this.leases.deleteExpired();
  }
}
