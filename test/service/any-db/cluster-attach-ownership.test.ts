// Attach ownership over real leases (runtime/agentctl/attach-ownership.ts): of the replicas that follow one
// agentctl, exactly one opens its stream; when that one dies (stops renewing) another takes the stream
// once the lease expires, and the dead one, if it still runs, drops its stream; a graceful stop hands
// it over at the next renewal, without waiting for the TTL; a stream agentctl replaced with a newer
// Attach is dropped and the lease asked at once. The clock decides expiry; renewals are
// real timers a few milliseconds apart, waited for as events (claims counted), never slept on.
import {
  type AgentctlEndpoint,
  type AttachFollower,
  attachLeaseName,
  createLogger,
  DatabaseLeases,
  type LeaseTiming,
  migrateToLatest,
  openTestDatabase,
  OwnedAttach,
  type WorkClaims,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

const cleanup = useCleanup();
const ENDPOINT = { grpcAddress: '10.0.0.7:7421', controlToken: 'token' } as AgentctlEndpoint;
const TIMING = { ttlMs: 10_000, renewMs: 5 };
const WAIT = { timeoutMs: 10_000 };

class Replica {
  readonly streams: { open: boolean; replaced: () => void }[] = [];
  claimsMade = 0;
  dead = false;
  readonly owned: OwnedAttach;

  constructor(
    readonly name: string,
    readonly leases: WorkClaims,
    clock: () => Date,
    timing: LeaseTiming,
  ) {
    // Counts every claim (a renewal tick) and fails them once "dead": its database is unreachable.
    const claims: WorkClaims = {
      replicaId: leases.replicaId,
      claim: (lease, ttlMs) => {
        this.claimsMade += 1;
        return this.dead ? Promise.reject(new Error('database unreachable')) : leases.claim(lease, ttlMs);
      },
      claimMany: (names, ttlMs) => leases.claimMany(names, ttlMs),
      renew: (lease, ttlMs) => leases.renew(lease, ttlMs),
      release: (lease) => leases.release(lease),
      releaseAll: () => leases.releaseAll(),
      deleteExpired: () => leases.deleteExpired(),
    };
    const create = (onReplaced: () => void): AttachFollower => {
      const stream = { open: false, replaced: onReplaced };
      this.streams.push(stream);
      return {
        follow: () => void (stream.open = true),
        stop: () => Promise.resolve(void (stream.open = false)),
      };
    };
    this.owned = new OwnedAttach({ claims, timing, clock, logger: createLogger('silent'), create });
    cleanup.defer(() => this.owned.stop());
  }

  get attached(): boolean {
    return this.streams.some((stream) => stream.open);
  }

  /** Resolves after this replica's next `count` renewals (a barrier for "nothing changed"). */
  async renewals(count: number): Promise<void> {
    const target = this.claimsMade + count;
    await waitUntil(() => this.claimsMade >= target, { ...WAIT, what: `${this.name} to renew` });
  }
}

async function setUp(count: number, timing: LeaseTiming = TIMING) {
  const db = await openTestDatabase(tempDir(cleanup), cleanup);
  cleanup.defer(() => db.destroy());
  await migrateToLatest(db); // SQLite: a fresh file; PostgreSQL: already migrated (its template)
  const now = { ms: 1_000_000 };
  const clock = () => new Date(now.ms);
  const logger = createLogger('silent');
  const replicas = Array.from(
    { length: count },
    (_, i) => new Replica(`r${i}`, new DatabaseLeases({ db, replicaId: `r${i}`, clock, logger }), clock, timing),
  );
  for (const replica of replicas) replica.owned.follow(ENDPOINT);
  const owner = await waitUntil(() => replicas.find((r) => r.attached), { ...WAIT, what: 'an owner' });
  return { replicas, owner, now, others: replicas.filter((r) => r !== owner) };
}

describe('Attach ownership', () => {
  it('one replica of three holds the stream while it renews', async () => {
    const { owner, others } = await setUp(3);
    for (const other of others) await other.renewals(3);
    await owner.renewals(3);
    expect(others.map((r) => r.attached)).toEqual([false, false]);
    expect(owner.streams).toHaveLength(1); // renewed, never re-opened
    expect(owner.attached).toBe(true);
  });

  it('another replica takes the stream once a dead holder’s lease expires', async () => {
    const { owner, others, now } = await setUp(3);
    owner.dead = true;
    // Before the TTL passes nobody takes over (barrier: every survivor renewed twice).
    for (const other of others) await other.renewals(2);
    expect(others.some((r) => r.attached)).toBe(false);
    now.ms += TIMING.ttlMs;
    const successor = await waitUntil(() => others.find((r) => r.attached), { ...WAIT, what: 'a successor' });
    // The old holder, still running but cut off, let its stream go once its lease could have expired.
    await waitUntil(() => !owner.attached, { ...WAIT, what: 'the dead holder to drop its stream' });
    for (const other of others) await other.renewals(2);
    expect(others.filter((r) => r.attached)).toEqual([successor]);
  });

  it('a graceful stop hands the stream over at the next renewal, without waiting for the TTL', async () => {
    const { owner, others } = await setUp(2);
    await owner.owned.stop();
    expect(owner.attached).toBe(false);
    await waitUntil(() => others[0]!.attached, { ...WAIT, what: 'the other replica to take over' });
  });

  describe('a stream agentctl replaced with a newer Attach', () => {
    // Renewals an hour apart: only the replaced stream makes the replica claim within the test.
    const SLOW = { ttlMs: 10_000, renewMs: 3_600_000 };

    it('is re-opened at once while the lease is still this replica’s', async () => {
      const { owner } = await setUp(2, SLOW);
      const claims = owner.claimsMade;
      owner.streams[0]!.replaced();
      await waitUntil(() => owner.streams.length === 2 && owner.attached, { ...WAIT, what: 'a fresh stream' });
      expect(owner.claimsMade).toBe(claims + 1);
      expect(owner.streams.map((s) => s.open)).toEqual([false, true]);
    });

    it('is dropped, not re-opened, once another replica holds the lease', async () => {
      const { owner, others, now } = await setUp(2, SLOW);
      now.ms += SLOW.ttlMs; // the owner's renewal was late: its lease ran out and the other took it
      expect(await others[0]!.leases.claim(attachLeaseName(ENDPOINT.grpcAddress), SLOW.ttlMs)).toBe(true);
      const claims = owner.claimsMade;
      owner.streams[0]!.replaced();
      await waitUntil(() => owner.claimsMade > claims, { ...WAIT, what: 'the owner to ask the lease' });
      await owner.owned.stop(); // waits for that claim's outcome
      expect(owner.streams).toHaveLength(1);
      expect(owner.attached).toBe(false);
    });
  });
});
