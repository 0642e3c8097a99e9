import type { Knex } from 'knex';
import { dialectOf } from './database';

class ProbeRollback extends Error {}

/**
 * SQLite: a transaction creates a table and rolls back (so it needs the write lock and a writable file,
 * and leaves nothing; in WAL mode the uncommitted change stays in memory, so a full disk shows only at
 * the next commit). PostgreSQL: no DDL (each probe would leave dead catalog rows behind, on every
 * replica's every /readyz) and no lock another replica's writer could hold: the transaction takes a
 * transaction id (refused on a read-only standby) and must not be read-only (default_transaction_read_only).
 */
async function probeWrite(trx: Knex.Transaction): Promise<void> {
  if (dialectOf(trx) === 'sqlite') {
    await trx.raw('CREATE TABLE kandev_readyz_probe (x INTEGER)');
    return;
  }
  const { rows } = await trx.raw<{ rows: { read_only: string }[] }>(
    "SELECT pg_current_xact_id(), current_setting('transaction_read_only') AS read_only",
  );
  if (rows[0]?.read_only !== 'off') throw new Error('the database is read-only');
}

/** Whether the database takes a write now (see probeWrite); false on any failure or after `timeoutMs`. */
export async function isDatabaseWritable(db: Knex, timeoutMs: number): Promise<boolean> {
  const rollback = new ProbeRollback('probe rolled back');
  const write = db
    .transaction(async (trx) => {
      await probeWrite(trx);
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
