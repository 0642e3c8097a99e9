// Databases of the data-growth benchmark: each size is seeded once per store into a template
// (scripts/fill-database.mjs) and every measured backend gets a fresh copy of it: on SQLite a copy of
// the database file, on PostgreSQL `CREATE DATABASE … TEMPLATE` on one cluster with fsync on
// (scripts/pg-cluster.mjs --durable). A copy then gets the probe: the small set of rows every read of
// the benchmark looks at, the same at every size.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fillDatabase } from '../fill-database.mjs';
import { startPostgres } from './live-update-backend.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const backend = createRequire(join(root, 'packages/backend/package.json'));
const { DATABASE_FILE_NAME, DATABASE_SIDE_FILE_SUFFIXES } = backend(
  join(root, 'packages/backend/dist/platform/store/database.js'),
);

/**
 * What every read looks at, so that each answers a full page at every size: one workspace of 100 tasks
 * with 20 messages each, 200 sessions (20 failed) and 400 questions (20 pending).
 */
export const PROBE = { workspaces: 1, tasks: 100, messages: 2_000, events: 2_600, sessions: 200, questions: 400 };
export const PROBE_PREFIX = 'probe-';

const quiet = () => undefined;

/** SQLite: templates are data dirs under one work dir; a copy is a fresh data dir with the file copied. */
function sqliteStore(scope) {
  const work = mkdtempSync(join(tmpdir(), 'kandev-growth-'));
  scope.cleanups.push(() => rmSync(work, { recursive: true, force: true }));
  return {
    async template(name, size) {
      const dir = join(work, `template-${name}`);
      mkdirSync(dir);
      if (size !== undefined) await fillDatabase({ dataDir: dir, size, log: quiet });
      return dir;
    },
    /** A fresh data dir holding the template's database and the probe; `remove` drops it. */
    async copy(template) {
      const dataDir = mkdtempSync(join(work, 'run-'));
      for (const suffix of ['', ...DATABASE_SIDE_FILE_SUFFIXES]) {
        const file = join(template, `${DATABASE_FILE_NAME}${suffix}`);
        if (existsSync(file)) copyFileSync(file, join(dataDir, `${DATABASE_FILE_NAME}${suffix}`));
      }
      await fillDatabase({ dataDir, size: PROBE, prefix: PROBE_PREFIX, log: quiet });
      return { dataDir, remove: async () => rmSync(dataDir, { recursive: true, force: true }) };
    },
  };
}

/** PostgreSQL: one durable cluster; a template is a database, a copy `CREATE DATABASE … TEMPLATE` of it. */
function postgresStore(scope) {
  const adminUrl = startPostgres(scope);
  const { Client } = backend('pg');
  const urlOf = (name) => adminUrl.replace(/\/postgres$/, `/${name}`);
  const admin = async (sql) => {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  let copies = 0;
  return {
    async template(name, size) {
      const database = `growth_${name}`;
      await admin(`CREATE DATABASE ${database}`);
      if (size !== undefined) await fillDatabase({ databaseUrl: urlOf(database), size, log: quiet });
      return database;
    },
    async copy(template) {
      copies += 1;
      const database = `run_${copies}`;
      await admin(`CREATE DATABASE ${database} TEMPLATE ${template}`);
      const databaseUrl = urlOf(database);
      await fillDatabase({ databaseUrl, size: PROBE, prefix: PROBE_PREFIX, log: quiet });
      const dataDir = mkdtempSync(join(tmpdir(), 'kandev-growth-pg-'));
      return {
        dataDir,
        databaseUrl,
        remove: async () => {
          rmSync(dataDir, { recursive: true, force: true });
          await admin(`DROP DATABASE ${database} WITH (FORCE)`);
        },
      };
    },
  };
}

/** The templates of one store ('sqlite' | 'postgres'): `{ store, templates: { [level]: template } }`. */
export async function seedTemplates(scope, database, levels, log) {
  const store = database === 'postgres' ? postgresStore(scope) : sqliteStore(scope);
  const templates = {};
  for (const level of levels) {
    const started = Date.now();
    templates[level.name] = await store.template(level.name, level.size);
    if (level.size !== undefined) log(`${level.name}: seeded in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  }
  return { store, templates };
}
