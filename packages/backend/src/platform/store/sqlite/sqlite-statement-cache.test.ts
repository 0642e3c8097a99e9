import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkpointAndClose, createSqliteDatabase } from './sqlite-database';
import { cacheStatements } from './sqlite-statement-cache';

describe('SQLite statement cache', () => {
  test('one compiled statement per SQL text; the least recently used goes first past 500', () => {
    const compiled: string[] = [];
    const connection = { prepare: (sql: string) => (compiled.push(sql), { sql }) };
    cacheStatements(connection);
    const first = connection.prepare('select 1');
    expect(connection.prepare('select 1')).toBe(first);
    for (let i = 0; i < 499; i++) connection.prepare(`select ${i + 2}`); // 500 texts kept
    connection.prepare('select 1'); // now the most recently used
    connection.prepare('select 501'); // drops `select 2`, the least recently used
    expect(connection.prepare('select 1')).toBe(first);
    connection.prepare('select 2');
    expect(compiled.filter((sql) => sql === 'select 1')).toHaveLength(1);
    expect(compiled.filter((sql) => sql === 'select 2')).toHaveLength(2);
  });

  test("a kept statement answers from the current schema after it changed (the backend's connection)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kandev-statements-'));
    const db = createSqliteDatabase(dir);
    try {
      await db.raw('create table t (a integer)');
      await db('t').insert({ a: 1 });
      expect(await db('t').select('*')).toEqual([{ a: 1 }]);
      await db.raw('alter table t add column b integer default 2');
      expect(await db('t').select('*')).toEqual([{ a: 1, b: 2 }]);
    } finally {
      await checkpointAndClose(db);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
