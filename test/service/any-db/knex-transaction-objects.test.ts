// The knex patch (patches/knex@3.3.0.patch, docs/database.md): a transaction's
// knex object takes its query methods from one shared prototype instead of owning ~150 closures, and
// still works as a full knex object, on SQLite and on PostgreSQL.
import { type Database, migrateToLatest, openTestDatabase } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';

describe('knex transaction objects', () => {
  const cleanup = useCleanup();
  let db: Database;

  beforeEach(async () => {
    db = await openTestDatabase(tempDir(cleanup, 'kandev-knex-trx-'), cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    await migrateToLatest(db);
  });

  test('a transaction object owns no query methods: every transaction shares them', async () => {
    const prototypes = await Promise.all(
      [1, 2].map(() =>
        db.transaction((trx) => {
          expect(Object.hasOwn(trx, 'select')).toBe(false);
          expect(Object.hasOwn(trx, 'raw')).toBe(false);
          return Promise.resolve(Object.getPrototypeOf(trx) as object);
        }),
      ),
    );
    expect(prototypes[0]).toBe(prototypes[1]);
    expect(Object.hasOwn(db, 'select')).toBe(true); // the root object is built as before
  });

  test('it still reads its own writes, reaches its context, and rolls back', async () => {
    const row = { id: 'w1', name: 'first', created_at: '2026-12-03T00:00:00.000Z' };
    await expect(
      db.transaction(async (trx) => {
        await trx('workspaces').insert(row);
        expect(await trx.select('name').from('workspaces').where({ id: 'w1' })).toEqual([{ name: 'first' }]);
        expect(trx.isTransaction).toBe(true);
        expect(typeof trx.fn.now()).toBe('object');
        await trx.transaction(async (savepoint) => savepoint('workspaces').update({ name: 'nested' }));
        const answer: unknown = await trx.raw('select name from workspaces where id = ?', ['w1']);
        const rows = Array.isArray(answer) ? answer : (answer as { rows: unknown[] }).rows; // SQLite | pg
        expect(rows).toEqual([{ name: 'nested' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(Number((await db('workspaces').count<{ n: string | number }[]>({ n: '*' }))[0]?.n)).toBe(0);
  });
});
