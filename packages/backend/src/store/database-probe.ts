import type { Knex } from 'knex';

class ProbeRollback extends Error {}

/**
 * Whether the database takes a write now: a transaction creates a table and rolls back (so it needs the
 * write lock and a writable file, and leaves nothing). False on any failure or after `timeoutMs`.
 * In WAL mode (store/sqlite-database.ts) the lock is the WAL's write lock and an uncommitted change
 * stays in memory: the probe writes no file, so a full disk shows only at the next commit.
 */
export async function isDatabaseWritable(db: Knex, timeoutMs: number): Promise<boolean> {
  const rollback = new ProbeRollback('probe rolled back');
  const write = db
    .transaction(async (trx) => {
      await trx.raw('CREATE TABLE kandev_readyz_probe (x INTEGER)');
      throw rollback;
    })
    .then(
      () => false,
      (error: unknown) => error === rollback,
    );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([write, late]);
  } finally {
    clearTimeout(timer);
  }
}
