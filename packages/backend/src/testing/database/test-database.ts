// Which database a test's backend uses. By default the embedded SQLite file in the test's data dir. In
// the -pg jest projects (KANDEV_TEST_DATABASE=postgres, set by test/helpers/postgres-project.ts) each
// data dir maps to its own database on the server KANDEV_TEST_DATABASE_URL names:
// `kandev_t_<hash of the data dir's path>`, created when missing (so a backend restarted on the same
// data dir finds its data again) and dropped when the test's cleanup runs (best effort).
//
// A new database is a copy of a template that already holds every migration (CREATE DATABASE …
// TEMPLATE): copying is much cheaper than migrating each one. The template's name carries a hash of
// the migrations' sources, so an edited migration builds a new template. Tests of the migrations
// themselves ask for an empty database.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createDatabase, type Database, migrateToLatest } from '../../platform/store/database';
import { createPostgresDatabase } from '../../platform/store/driver/postgres-database';
import type { Cleanup } from '../cleanup';

export type TestDatabaseDialect = 'sqlite' | 'postgres';

const STORE_DIR = resolve(__dirname, '../../platform/store');

/** 'postgres' in the -pg projects (and then the server's URL must be set), else 'sqlite'. */
export function testDatabaseDialect(): TestDatabaseDialect {
  if (process.env.KANDEV_TEST_DATABASE !== 'postgres') return 'sqlite';
  serverUrl(); // fails loudly: a -pg project must never quietly run on SQLite
  return 'postgres';
}

export function onPostgres(): boolean {
  return testDatabaseDialect() === 'postgres';
}

function serverUrl(): URL {
  const value = process.env.KANDEV_TEST_DATABASE_URL ?? '';
  if (value === '') {
    throw new Error(
      'KANDEV_TEST_DATABASE=postgres needs KANDEV_TEST_DATABASE_URL (node scripts/pg-cluster.mjs start <dir>)',
    );
  }
  return new URL(value);
}

function urlOf(database: string): string {
  const url = serverUrl();
  url.pathname = `/${database}`;
  return url.toString();
}

/** The database a data dir maps to (a restarted backend on the same dir finds the same one). */
export function testDatabaseName(dataDir: string): string {
  return `kandev_t_${createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 24)}`;
}

function templateName(): string {
  const hash = createHash('sha256');
  const migrations = join(STORE_DIR, 'migrations');
  for (const file of readdirSync(migrations).sort()) hash.update(file).update(readFileSync(join(migrations, file)));
  hash.update(readFileSync(join(STORE_DIR, 'migration-source.ts')));
  return `kandev_tpl_${hash.digest('hex').slice(0, 24)}`;
}

/** One connection to the server's maintenance database, for CREATE/DROP DATABASE; closed after `work`. */
async function withAdmin<T>(work: (admin: Database) => Promise<T>): Promise<T> {
  const admin = createPostgresDatabase(serverUrl().toString(), { min: 0, max: 1 });
  try {
    return await work(admin);
  } finally {
    await admin.destroy();
  }
}

async function exists(admin: Database, database: string): Promise<boolean> {
  const { rows } = await admin.raw<{ rows: unknown[] }>('SELECT 1 FROM pg_database WHERE datname = ?', [database]);
  return rows.length > 0;
}

function isDuplicateDatabase(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '42P04';
}

/** Builds the migrated template once per server (under an advisory lock: jest workers race for it). */
async function ensureTemplate(admin: Database): Promise<string> {
  const template = templateName();
  if (await exists(admin, template)) return template;
  // The pool has one connection, so the session lock and its unlock happen on the same one.
  await admin.raw('SELECT pg_advisory_lock(7417001)');
  try {
    if (await exists(admin, template)) return template;
    const building = `${template}_building`;
    await admin.raw(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`); // left by a killed run
    await admin.raw(`CREATE DATABASE ${building}`);
    const db = createPostgresDatabase(urlOf(building), { min: 0, max: 1 });
    try {
      await migrateToLatest(db);
    } finally {
      await db.destroy();
    }
    await admin.raw(`ALTER DATABASE ${building} RENAME TO ${template}`);
    return template;
  } finally {
    await admin.raw('SELECT pg_advisory_unlock(7417001)');
  }
}

/** Drops the data dir's database (best effort: a developer's server must not fill up). */
export async function dropTestDatabase(dataDir: string): Promise<void> {
  try {
    await withAdmin((admin) => admin.raw(`DROP DATABASE IF EXISTS ${testDatabaseName(dataDir)} WITH (FORCE)`));
  } catch {
    // the server is gone or the database busy: nothing to keep a test failing for
  }
}

export interface TestDatabaseOptions {
  /** No migrations applied (tests of the migrations themselves); default: migrated. */
  empty?: boolean;
}

/**
 * On PostgreSQL: the URL of `dataDir`'s database, created when missing (its drop deferred to `cleanup`
 * then). On SQLite: undefined (the backend uses the file in the data dir).
 */
export async function testDatabaseUrl(
  dataDir: string,
  cleanup?: Cleanup,
  options: TestDatabaseOptions = {},
): Promise<string | undefined> {
  if (!onPostgres()) return undefined;
  const name = testDatabaseName(dataDir);
  await withAdmin(async (admin) => {
    if (await exists(admin, name)) return;
    const template = options.empty === true ? undefined : await ensureTemplate(admin);
    try {
      await admin.raw(
        template === undefined ? `CREATE DATABASE ${name}` : `CREATE DATABASE ${name} TEMPLATE ${template}`,
      );
    } catch (error) {
      if (!isDuplicateDatabase(error)) throw error;
      return; // created by a concurrent caller, which owns its drop
    }
    cleanup?.defer(() => dropTestDatabase(dataDir));
  });
  return urlOf(name);
}

/** The environment that points a backend process (or a CLI) at `dataDir`'s database. */
export async function testDatabaseEnv(dataDir: string, cleanup?: Cleanup): Promise<Record<string, string>> {
  const url = await testDatabaseUrl(dataDir, cleanup);
  return url === undefined ? {} : { KANDEV_DATABASE_URL: url };
}

/**
 * What `createDatabase(dataDir)` opens in production, for the database the tests run on; the caller
 * destroys it. `cleanup` (when the database is created here) drops it at the end of the test.
 */
export async function openTestDatabase(
  dataDir: string,
  cleanup?: Cleanup,
  options: TestDatabaseOptions = {},
): Promise<Database> {
  return createDatabase(dataDir, await testDatabaseUrl(dataDir, cleanup, options));
}

/** A JSON column as read back: text on SQLite, already parsed by the driver on PostgreSQL. */
export function jsonColumn(value: unknown): unknown {
  return typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
}

/** A JSON column as text (to search it for something that must not be stored), on either database. */
export function jsonColumnText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A row read back, ready to insert again: PostgreSQL's driver parsed its JSON columns, and would send
 * a parsed array back as a PostgreSQL array literal; as text they go back as JSON on either database.
 */
export function insertable(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]) => [
      column,
      typeof value === 'object' && value !== null && !(value instanceof Date) ? JSON.stringify(value) : value,
    ]),
  );
}
