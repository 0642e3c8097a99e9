// Files at rest, in process on a real disk: the data dir 0700 and every file that may hold a secret
// 0600 even under a permissive umask (0000), SQLite's WAL and shm files (and an older rollback journal)
// included; an existing looser data dir is tightened by name, and nothing else in it is touched.
import { chmodSync, closeSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createDatabase,
  type Database,
  dataDirSecretKey,
  DOCKER_TOKEN_DIR,
  DockerTokenFiles,
  loadBackendId,
  migrateToLatest,
  openPrivateAppend,
  secureDataDir,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('data dir files at rest', () => {
  const cleanup = useCleanup();
  let umask: number;
  beforeEach(() => {
    umask = process.umask(0); // the worst case: whatever is created without an explicit mode is 0666/0777
  });
  afterEach(() => {
    process.umask(umask);
  });

  function openDatabase(dataDir: string): Database {
    const db = createDatabase(dataDir);
    cleanup.defer(() => db.destroy());
    return db;
  }

  /** The SQLite files of the data dir with their modes, while the caller's callback runs. */
  function sqliteFiles(dataDir: string): Record<string, number> {
    const names = readdirSync(dataDir).filter((name) => name.startsWith('kandev.sqlite3'));
    return Object.fromEntries(names.map((name) => [name, mode(join(dataDir, name))]));
  }

  test('a new data dir is 0700, the database 0600, and the -wal and -shm files SQLite creates 0600 too', async () => {
    const dataDir = join(tempDir(cleanup), 'a', 'data');
    const db = openDatabase(dataDir);
    await migrateToLatest(db);
    expect(mode(dataDir)).toBe(0o700);
    await db('workspaces').insert({ id: 'w', name: 'w', created_at: '2026-12-01T00:00:00.000Z' });
    expect(sqliteFiles(dataDir)).toEqual({
      'kandev.sqlite3': 0o600,
      'kandev.sqlite3-wal': 0o600,
      'kandev.sqlite3-shm': 0o600,
    });
  });

  test('a database left in rollback-journal mode is switched to WAL; its journal was 0600 too', async () => {
    const dataDir = tempDir(cleanup);
    const db = openDatabase(dataDir);
    await db.raw('PRAGMA journal_mode = DELETE'); // as a version before WAL left it
    await migrateToLatest(db);
    let during: Record<string, number> = {};
    await db.transaction(async (trx) => {
      await trx('workspaces').insert({ id: 'w', name: 'w', created_at: '2026-12-01T00:00:00.000Z' });
      during = sqliteFiles(dataDir);
    });
    expect(during).toEqual({ 'kandev.sqlite3': 0o600, 'kandev.sqlite3-journal': 0o600 });
    await db.destroy();
    const again = openDatabase(dataDir);
    const rows = await again.raw<{ journal_mode: string }[]>('PRAGMA journal_mode');
    expect(rows[0]?.journal_mode).toBe('wal');
  });

  test('the generated secret.key is 0600 and read back, not replaced, on the next start', () => {
    const dataDir = tempDir(cleanup);
    const first = dataDirSecretKey(dataDir);
    expect(first.created).toBe(true);
    expect(mode(join(dataDir, 'secret.key'))).toBe(0o600);
    const again = dataDirSecretKey(dataDir);
    expect({ created: again.created, id: again.key.id }).toEqual({ created: false, id: first.key.id });
  });

  test('the agentctl log, the backend id and the docker token dir are private', () => {
    const dataDir = tempDir(cleanup);
    closeSync(openPrivateAppend(join(dataDir, 'agentctl.log')));
    expect(mode(join(dataDir, 'agentctl.log'))).toBe(0o600);
    writeFileSync(join(dataDir, 'old.log'), '', { mode: 0o644 });
    closeSync(openPrivateAppend(join(dataDir, 'old.log'))); // an existing looser log is tightened on open
    expect(mode(join(dataDir, 'old.log'))).toBe(0o600);
    loadBackendId(join(dataDir, 'backend-id'));
    expect(mode(join(dataDir, 'backend-id'))).toBe(0o600);
    const tokens = new DockerTokenFiles(join(dataDir, DOCKER_TOKEN_DIR));
    const { path } = tokens.create('c1');
    expect(mode(join(dataDir, DOCKER_TOKEN_DIR))).toBe(0o700);
    expect(mode(path)).toBe(0o444); // the container's own uid reads it; the 0700 dir keeps everyone else out
  });

  test('secureDataDir tightens the dir and the known files, reports them, and leaves the rest alone', () => {
    const dataDir = join(tempDir(cleanup), 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    const loose = ['kandev.sqlite3', 'kandev.sqlite3-wal', 'agentctl.log', 'agentctl.json', 'secret.key'];
    for (const name of loose) writeFileSync(join(dataDir, name), '', { mode: 0o644 });
    writeFileSync(join(dataDir, 'backend-id'), '', { mode: 0o600 }); // already private: not reported
    writeFileSync(join(dataDir, 'notes.txt'), '', { mode: 0o644 }); // not the backend's: untouched
    mkdirSync(join(dataDir, DOCKER_TOKEN_DIR), { mode: 0o755 });

    const tightened = secureDataDir(dataDir);
    expect([...tightened].sort()).toEqual(
      [dataDir, join(dataDir, DOCKER_TOKEN_DIR), ...loose.map((name) => join(dataDir, name))].sort(),
    );
    expect(mode(dataDir)).toBe(0o700);
    for (const name of [...loose, 'backend-id'])
      expect({ name, mode: mode(join(dataDir, name)) }).toEqual({ name, mode: 0o600 });
    expect(mode(join(dataDir, DOCKER_TOKEN_DIR))).toBe(0o700);
    expect(mode(join(dataDir, 'notes.txt'))).toBe(0o644);
    expect(existsSync(join(dataDir, 'kandev.sqlite3-shm'))).toBe(false); // nothing is created
    expect(secureDataDir(dataDir)).toEqual([]); // a second start has nothing to say
  });

  test('a missing data dir is created 0700 and nothing is reported', () => {
    const dataDir = join(tempDir(cleanup), 'fresh');
    expect(secureDataDir(dataDir)).toEqual([]);
    expect(mode(dataDir)).toBe(0o700);
    chmodSync(dataDir, 0o750);
    expect(secureDataDir(dataDir)).toEqual([dataDir]);
  });
});
