// Named statements on a real database (platform/store/driver/postgres-statement-names.ts): on PostgreSQL a repeated
// statement that names its columns is parsed once per connection and kept; a `select *` never is, so a
// column another process adds does not break a running backend's reads. On SQLite the same reads answer
// from the current schema (its statement cache recompiles).
import {
  createDatabase,
  createPostgresDatabase,
  type Database,
  onPostgres,
  testDatabaseUrl,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';

/** The statements `db`'s next connection keeps prepared (its pool has one). */
async function prepared(db: Database): Promise<string[]> {
  const { rows } = await db.raw<{ rows: { statement: string }[] }>('select statement from pg_prepared_statements');
  return rows.map((row) => row.statement);
}

describe('named statements', () => {
  const cleanup = useCleanup();
  let db: Database;
  let url: string | undefined;

  beforeEach(async () => {
    const dir = tempDir(cleanup, 'kandev-named-statements-');
    url = await testDatabaseUrl(dir, cleanup, { empty: true });
    // One connection: every statement below runs where the previous ones were prepared.
    db = url === undefined ? createDatabase(dir, undefined) : createPostgresDatabase(url, { min: 0, max: 1 });
    cleanup.defer(() => db.destroy());
    await db.schema.createTable('notes', (table) => {
      table.integer('id').primary();
      table.string('body');
    });
    await db('notes').insert({ id: 1, body: 'first' });
  });

  test('repeated reads answer from the schema as it is now, after another connection added a column', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await db('notes').select('id', 'body').where({ id: 1 })).toEqual([{ id: 1, body: 'first' }]);
      expect(await db('notes').where({ id: 1 })).toEqual([{ id: 1, body: 'first' }]);
    }
    const other = url === undefined ? db : createPostgresDatabase(url);
    if (other !== db) cleanup.defer(() => other.destroy());
    await other.schema.alterTable('notes', (table) => table.string('tag').defaultTo('new'));
    expect(await db('notes').select('id', 'body').where({ id: 1 })).toEqual([{ id: 1, body: 'first' }]);
    expect(await db('notes').where({ id: 1 })).toEqual([{ id: 1, body: 'first', tag: 'new' }]);
  });

  if (!onPostgres()) return;

  test('on PostgreSQL a repeated statement that names its columns is kept prepared; `select *` is not', async () => {
    for (let i = 0; i < 3; i++) {
      await db('notes').select('id', 'body').where({ id: 1 });
      await db('notes').where({ id: 1 });
      await db('notes').where({ id: 1 }).update({ body: 'again' });
    }
    const kept = await prepared(db);
    expect(kept).toEqual(
      expect.arrayContaining([
        'select "id", "body" from "notes" where "id" = $1',
        'update "notes" set "body" = $1 where "id" = $2',
      ]),
    );
    expect(kept.filter((statement) => statement.includes('*'))).toEqual([]);
  });
});
