// Backend replicas starting together on one empty PostgreSQL database migrate it once: the first to
// take the migration lock applies every migration, the others wait for it and find nothing to do
// (without the lock, knex's own lock table fails the second migrator and its pod restarts). The test
// holds the lock itself until both backends are waiting on it, so they really start together.
import {
  createPostgresDatabase,
  type Database,
  MIGRATION_LOCK,
  MIGRATION_SOURCE,
  testDatabaseUrl,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { startBackend, tempDir } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

/** The migrations a backend's 'database ready' line says it applied. */
function appliedBy(logs: string): string[] {
  for (const line of logs.split('\n')) {
    try {
      const entry = JSON.parse(line) as { msg?: string; applied?: string[] };
      if (entry.msg === 'database ready') return entry.applied ?? [];
    } catch {
      // not a log line
    }
  }
  throw new Error(`no 'database ready' line in:\n${logs}`);
}

describe('migrations at start on PostgreSQL', () => {
  const cleanup = useCleanup();

  test('two backends starting together on an empty database: one migrates, the other waits and applies nothing', async () => {
    const url = await testDatabaseUrl(tempDir(cleanup), cleanup, { empty: true });
    if (url === undefined) throw new Error('needs PostgreSQL (the integration-pg project)');
    const holder: Database = createPostgresDatabase(url, { min: 1, max: 1 });
    cleanup.defer(() => holder.destroy());
    const holding = await holder.transaction();
    await holding.raw('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);

    const starting = [0, 1].map(() => startBackend(cleanup, { KANDEV_DATABASE_URL: url }));
    // Both are blocked on the lock (a key below 2^32 shows as classid 0, objid = key).
    await waitUntil(
      async () => {
        const rows = await holding.raw(
          `SELECT count(*)::int AS waiting FROM pg_locks
             WHERE locktype = 'advisory' AND NOT granted AND classid = 0 AND objid = ? AND database =
               (SELECT oid FROM pg_database WHERE datname = current_database())`,
          [MIGRATION_LOCK],
        );
        return (rows as { rows: { waiting: number }[] }).rows[0]?.waiting === 2;
      },
      { timeoutMs: 30_000, what: 'both backends waiting on the migration lock' },
    );
    await holding.commit();
    const backends = await Promise.all(starting);

    const all = (await MIGRATION_SOURCE.getMigrations([])).length;
    const applied = backends.map((b) => appliedBy(b.logs()).length).sort((a, b) => a - b);
    expect(all).toBeGreaterThan(0);
    expect(applied).toEqual([0, all]);
    const recorded = await holder('knex_migrations').select('name');
    expect(recorded).toHaveLength(all);
    for (const backend of backends) {
      const health = await fetch(`${backend.ready.url}/healthz`);
      expect(health.status).toBe(200);
    }
  });
});
