/** The part of a better-sqlite3 connection the cache wraps. */
interface PreparingConnection {
  prepare(sql: string): unknown;
}

/** Distinct SQL texts kept compiled per connection (a `whereIn` of each size is one text). */
const CACHED_STATEMENTS = 500;

/**
 * knex prepares every query afresh; compiling the SQL is a measurable share of each query on SQLite
 * (docs/benchmarks.md). The connection keeps its compiled statements by SQL text, least recently used
 * dropped first. Safe because knex runs each statement to completion before the next (`all`/`run` are
 * synchronous) and SQLite recompiles a kept statement itself after a schema change.
 */
export function cacheStatements(connection: PreparingConnection): void {
  const prepare = connection.prepare.bind(connection);
  const compiled = new Map<string, unknown>();
  connection.prepare = (sql: string) => {
    let statement = compiled.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (compiled.size >= CACHED_STATEMENTS) compiled.delete(compiled.keys().next().value as string);
    } else {
      compiled.delete(sql);
    }
    compiled.set(sql, statement);
    return statement;
  };
}
