// The lease store against the real database (SQLite, and PostgreSQL in the service-pg project):
// random interleavings of claims, renewals and releases by three replicas over a controllable clock
// agree with the pure rules (platform/cluster/lease-rules.ts) step by step, so a name never has two holders;
// a batch claim takes only free names; releaseAll frees what one replica held; on PostgreSQL expired
// leases are deleted only once their owner is gone.
import fc from 'fast-check';
import {
  claim,
  createLogger,
  DatabaseLeases,
  holderAt,
  KeptConnection,
  type Lease,
  LeaseStore,
  migrateToLatest,
  onPostgres,
  openTestDatabase,
  renew,
  SingleProcess,
  testDatabaseUrl,
  withClaim,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

const cleanup = useCleanup();

async function openDatabase(dir = tempDir(cleanup)) {
  const db = await openTestDatabase(dir, cleanup);
  cleanup.defer(() => db.destroy());
  await migrateToLatest(db); // SQLite: a fresh file; PostgreSQL: already migrated (its template)
  return db;
}

type Step =
  { kind: 'claim' | 'renew' | 'release'; replica: string; name: string; ttlMs: number } | { kind: 'tick'; ms: number };

const REPLICAS = ['replica-a', 'replica-b', 'replica-c'];
const NAMES = ['drain:s1', 'attach:10.0.0.1:7421'];

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('claim' as const, 'renew' as const, 'release' as const),
    replica: fc.constantFrom(...REPLICAS),
    name: fc.constantFrom(...NAMES),
    ttlMs: fc.integer({ min: 1, max: 100 }),
  }),
  fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 120 }) }),
);

describe('lease store', () => {
  it('agrees with the lease rules over random interleavings: one holder per name at a time', async () => {
    const db = await openDatabase();
    const store = new LeaseStore(db);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { maxLength: 30 }), async (steps) => {
        run += 1;
        const prefix = `run${run}/`; // one database for every run: each uses its own names
        const model = new Map<string, Lease>();
        let now = 1_000_000;
        for (const step of steps) {
          if (step.kind === 'tick') {
            now += step.ms;
            continue;
          }
          const name = prefix + step.name;
          const current = model.get(name);
          if (step.kind === 'release') {
            const released = await store.release(name, step.replica);
            expect(released).toBe(current?.owner === step.replica);
            if (released) model.delete(name);
          } else {
            const expected =
              step.kind === 'claim'
                ? claim(current, name, step.replica, now, step.ttlMs)
                : renew(current, step.replica, now, step.ttlMs);
            const granted =
              step.kind === 'claim'
                ? await store.claim(name, step.replica, now, step.ttlMs)
                : await store.renew(name, step.replica, now, step.ttlMs);
            expect(granted).toBe(expected !== null);
            if (expected !== null) model.set(name, expected);
          }
          for (const each of NAMES) {
            const stored = await store.find(prefix + each);
            expect(holderAt(stored, now)).toBe(holderAt(model.get(prefix + each), now));
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('claims a batch: only the names free or already ours; releaseAll frees one replica’s', async () => {
    const db = await openDatabase();
    const store = new LeaseStore(db);
    expect(await store.claim('poll:2', 'b', 0, 1_000)).toBe(true);
    expect((await store.claimMany(['poll:1', 'poll:2', 'poll:3'], 'a', 100, 500)).sort()).toEqual(['poll:1', 'poll:3']);
    // Ours are renewed, b's still refused, until it expires.
    expect((await store.claimMany(['poll:1', 'poll:2'], 'a', 400, 500)).sort()).toEqual(['poll:1']);
    expect((await store.claimMany(['poll:1', 'poll:2'], 'a', 1_000, 500)).sort()).toEqual(['poll:1', 'poll:2']);
    // poll:3, not renewed since 100, expired at 600.
    expect(await store.claimMany(['poll:1', 'poll:2', 'poll:3'], 'b', 1_100, 500)).toEqual(['poll:3']);
    expect(await store.releaseAll('a')).toBe(2);
    expect((await store.claimMany(['poll:1', 'poll:3'], 'b', 1_100, 500)).sort()).toEqual(['poll:1', 'poll:3']);
  });

  it('runs work once per claim: a second replica is turned away until the first lets go', async () => {
    const db = await openDatabase();
    const now = { ms: 5_000 };
    const clock = () => new Date(now.ms);
    const logger = createLogger('silent');
    const a = new DatabaseLeases({ db, replicaId: 'a', clock, logger });
    const b = new DatabaseLeases({ db, replicaId: 'b', clock, logger });
    const inside = await withClaim(a, 'drain:s1', 10_000, async () => {
      const second = await withClaim(b, 'drain:s1', 10_000, () => Promise.resolve('b ran'));
      return second.ran;
    });
    expect(inside).toEqual({ ran: true, value: false });
    expect(await withClaim(b, 'drain:s1', 10_000, () => Promise.resolve('b ran'))).toEqual({
      ran: true,
      value: 'b ran',
    });
    // A holder that dies (never releases) holds the name until its lease expires.
    expect(await a.claim('attach:x', 10_000)).toBe(true);
    expect(await b.claim('attach:x', 10_000)).toBe(false);
    now.ms += 10_000;
    expect(await b.claim('attach:x', 10_000)).toBe(true);
    expect(await a.claim('attach:x', 10_000)).toBe(false);
  });

  it('with one replica every claim succeeds and nothing is written', async () => {
    const db = await openDatabase();
    const single = new SingleProcess('only');
    expect(await single.claim()).toBe(true);
    expect([...(await single.claimMany(['x', 'y']))]).toEqual(['x', 'y']);
    const rows = await db('leases').count<{ n: number | string }[]>({ n: '*' });
    expect(rows.map((row) => Number(row.n))).toEqual([0]);
  });

  if (!onPostgres()) return;

  it('PostgreSQL presence: a lease is taken before it expires once its owner has no connection left', async () => {
    const dir = tempDir(cleanup);
    const db = await openDatabase(dir);
    const store = new LeaseStore(db, { presencePrefix: 'test-presence:' });
    const presence = new KeptConnection({
      connection: { connectionString: await testDatabaseUrl(dir) },
      applicationName: 'test-presence:a',
      logger: createLogger('silent'),
      onConnected: () => Promise.resolve(),
    });
    await presence.ready();
    let connected = true;
    cleanup.defer(async () => {
      if (connected) await presence.close();
    });
    expect(await store.claim('attach:p', 'a', 0, 60_000)).toBe(true);
    expect(await store.claim('poll:p', 'a', 0, 60_000)).toBe(true);
    // a is present (its connection is open): nothing is taken before the TTL.
    expect(await store.claim('attach:p', 'b', 1_000, 60_000)).toBe(false);
    expect(await store.claimMany(['poll:p'], 'b', 1_000, 60_000)).toEqual([]);
    // An expired lease of a present owner is kept: only the leases of gone replicas are deleted.
    expect(await store.claim('launch:p', 'a', 0, 500)).toBe(true);
    expect(await store.deleteExpired(1_000, 100)).toBe(0);
    await presence.close();
    connected = false;
    await waitUntil(
      async () => {
        const { rows } = await db.raw<{ rows: unknown[] }>(
          "SELECT 1 FROM pg_stat_activity WHERE application_name = 'test-presence:a'",
        );
        return rows.length === 0;
      },
      { timeoutMs: 10_000, what: "the owner's connection to end" },
    );
    // Its connection ended with it: both are free at once, long before they expire.
    expect(await store.claim('attach:p', 'b', 2_000, 60_000)).toBe(true);
    expect(await store.claimMany(['poll:p'], 'b', 2_000, 60_000)).toEqual(['poll:p']);
    expect(await store.deleteExpired(2_000, 100)).toBe(1); // launch:p, expired and its owner gone
    expect(await store.find('launch:p')).toBeUndefined();
  });

  it('PostgreSQL presence: the server probes the kept connection, so a dead host’s presence ends', async () => {
    const dir = tempDir(cleanup);
    await openDatabase(dir);
    const settings: Record<string, string> = {};
    const presence = new KeptConnection({
      connection: { connectionString: await testDatabaseUrl(dir) },
      applicationName: 'test-presence:keepalive',
      logger: createLogger('silent'),
      onConnected: async (client) => {
        for (const name of ['tcp_keepalives_idle', 'tcp_keepalives_interval', 'tcp_keepalives_count']) {
          const { rows } = await client.query<Record<string, string>>(`SHOW ${name}`);
          settings[name] = rows[0]?.[name] ?? '';
        }
      },
    });
    await presence.ready();
    cleanup.defer(() => presence.close());
    // Over TCP (the tests' clusters listen on 127.0.0.1): a Unix socket would show 0, meaning none.
    expect(settings).toEqual({ tcp_keepalives_idle: '10', tcp_keepalives_interval: '5', tcp_keepalives_count: '3' });
  });
});
