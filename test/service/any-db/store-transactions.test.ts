// A unit of work's transaction (platform/store/driver/store-transaction.ts) on a real database: no knex
// Transaction object per transaction, only a small handle whose client inherits from the pool's; it reads
// its own writes, commits or rolls back, and refuses a statement issued after it ended.
import { type Database, migrateToLatest, openTestDatabase, runTransaction } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';

const ROW = { id: 'w1', name: 'first', created_at: '2026-12-03T00:00:00.000Z' };

async function names(db: Database): Promise<string[]> {
  const rows = await db('workspaces').select<{ name: string }[]>('name').orderBy('id');
  return rows.map((row) => row.name);
}

describe('store transactions', () => {
  const cleanup = useCleanup();
  let db: Database;

  beforeEach(async () => {
    db = await openTestDatabase(tempDir(cleanup, 'kandev-store-trx-'), cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    await migrateToLatest(db);
  });

  test('a transaction is a handle of four properties; every transaction shares its client prototype', async () => {
    const seen = await Promise.all(
      [1, 2].map(() =>
        runTransaction(db, (sql) =>
          Promise.resolve({ own: Object.keys(sql).sort(), prototype: Object.getPrototypeOf(sql.client) as object }),
        ),
      ),
    );
    for (const { own } of seen) expect(own).toEqual(['client', 'queryBuilder', 'raw', 'ref']);
    expect(seen[0]?.prototype).toBe(seen[1]?.prototype);
    expect(Object.getPrototypeOf(seen[0]?.prototype)).toBe(db.client); // everything else is the pool's client
  });

  test('it reads its own writes and commits; a failure rolls everything back', async () => {
    await runTransaction(db, async (sql) => {
      await sql('workspaces').insert(ROW);
      await sql('workspaces')
        .where({ id: 'w1' })
        .update({ name: sql.raw('? || name', ['my ']) });
      expect(await sql.queryBuilder().select('name').from('workspaces')).toEqual([{ name: 'my first' }]);
    });
    expect(await names(db)).toEqual(['my first']);
    await expect(
      runTransaction(db, async (sql) => {
        await sql('workspaces').update({ name: 'changed' });
        await sql('workspaces').insert({ ...ROW, id: 'w2' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await names(db)).toEqual(['my first']);
  });

  test('a statement issued after the work ended is refused and runs nowhere', async () => {
    let late: PromiseLike<unknown> | undefined;
    await runTransaction(db, (sql) => {
      late = sql('workspaces').insert(ROW); // built, never awaited in the transaction
      return Promise.resolve();
    });
    await expect(Promise.resolve(late)).rejects.toThrow('the unit of work has ended');
    expect(await names(db)).toEqual([]);
    // Its connection went back to the pool clean: the next transaction commits.
    await runTransaction(db, async (sql) => {
      await sql('workspaces').insert(ROW);
    });
    expect(await names(db)).toEqual(['first']);
  });
});
