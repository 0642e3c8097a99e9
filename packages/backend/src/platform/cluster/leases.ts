import type { Knex } from 'knex';
import type { Logger } from '../logger/logger';
import { LeaseStore } from './lease-store';

/**
 * Work that must happen once across replicas is claimed by name first ("drain:<session>",
 * "mr-poll:<link>", "attach:<address>"…). A claim runs `ttlMs` from now on this replica's clock; the
 * holder renews by claiming again, and a replica that dies simply stops renewing: the name is free once
 * the lease expires.
 */
export interface WorkClaims {
  /** This process among the replicas. */
  readonly replicaId: string;
  /** True when this replica holds `name` for `ttlMs` from now (claimed, or renewed when it held it). */
  claim(name: string, ttlMs: number): Promise<boolean>;
  /** `claim` for many names at once; resolves the ones this replica holds. */
  claimMany(names: readonly string[], ttlMs: number): Promise<Set<string>>;
  /**
   * Extends `name` to `ttlMs` from now if this replica still holds it; never takes it, nor writes it
   * again once released (a renewal racing a release cannot bring the lease back).
   */
  renew(name: string, ttlMs: number): Promise<boolean>;
  /** Frees `name` if this replica holds it. */
  release(name: string): Promise<void>;
  /** Frees everything this replica holds (graceful stop). */
  releaseAll(): Promise<void>;
  /**
   * Deletes leases that expired and whose holder is gone (a replica that died never released them), a
   * small batch at a time; resolves how many. Nothing to delete where nothing is written.
   */
  deleteExpired(): Promise<number>;
}

/** Leases deleted per statement by deleteExpired: short statements beside the live claims. */
export const EXPIRED_LEASE_BATCH = 100;
/** Batches per deleteExpired call at most; what is left goes at the next sweep. */
const EXPIRED_LEASE_BATCHES = 10;

export interface DatabaseLeasesDeps {
  db: Knex;
  replicaId: string;
  clock: () => Date;
  logger: Logger;
  /** PostgreSQL replica presence: a gone owner's leases are free at once (LeaseStoreOptions). */
  presencePrefix?: string;
}

/** Leases in the shared database's `leases` table (PostgreSQL; SQLite in tests of several replicas). */
export class DatabaseLeases implements WorkClaims {
  readonly replicaId: string;
  private readonly store: LeaseStore;

  constructor(private readonly deps: DatabaseLeasesDeps) {
    this.replicaId = deps.replicaId;
    this.store = new LeaseStore(deps.db, { presencePrefix: deps.presencePrefix });
  }

  private nowMs(): number {
    return this.deps.clock().getTime();
  }

  claim(name: string, ttlMs: number): Promise<boolean> {
    return this.store.claim(name, this.replicaId, this.nowMs(), ttlMs);
  }

  async claimMany(names: readonly string[], ttlMs: number): Promise<Set<string>> {
    return new Set(await this.store.claimMany(names, this.replicaId, this.nowMs(), ttlMs));
  }

  renew(name: string, ttlMs: number): Promise<boolean> {
    return this.store.renew(name, this.replicaId, this.nowMs(), ttlMs);
  }

  async release(name: string): Promise<void> {
    await this.store.release(name, this.replicaId);
  }

  async releaseAll(): Promise<void> {
    const released = await this.store.releaseAll(this.replicaId);
    if (released > 0) this.deps.logger.info({ released, replicaId: this.replicaId }, 'leases released');
  }

  async deleteExpired(): Promise<number> {
    let deleted = 0;
    for (let batch = 0; batch < EXPIRED_LEASE_BATCHES; batch += 1) {
      const count = await this.store.deleteExpired(this.nowMs(), EXPIRED_LEASE_BATCH);
      deleted += count;
      if (count < EXPIRED_LEASE_BATCH) break;
    }
    if (deleted > 0) this.deps.logger.info({ deleted }, 'expired leases of gone replicas deleted');
    return deleted;
  }
}

/** What claimed work resolved: its value, or that another replica holds the name (it did not run). */
export type Claimed<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `work` while holding `name`, then frees it; resolves `{ ran: false }` without running it when
 * another replica holds the name. For work that is short next to the TTL (a claim that outlives it only lets a
 * second replica start the same idempotent work, never corrupts it: the work's own writes are
 * compare-and-set). `releaseAfter`, when given, is handed the release instead of it being awaited
 * (the caller queues it where what must follow it queues too).
 */
export async function withClaim<T>(
  claims: WorkClaims,
  name: string,
  ttlMs: number,
  work: () => Promise<T>,
  releaseAfter?: (release: () => Promise<void>) => void,
): Promise<Claimed<T>> {
  if (!(await claims.claim(name, ttlMs))) return { ran: false };
  const release = () => claims.release(name).catch(() => undefined); // it expires anyway
  try {
    return { ran: true, value: await work() };
  } finally {
    if (releaseAfter === undefined) await release();
    else releaseAfter(release);
  }
}
