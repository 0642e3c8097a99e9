// The online backup (`npm run admin -- backup`) against a real backend process that keeps writing:
// the copy is 0600, a consistent snapshot (a prefix of the writes, every write before it included),
// and a second backend started on a data dir restored from it (`admin restore`) serves the rows and
// accepts the old API token. Refusals (an existing target, a live data dir, PostgreSQL) exit 2 and
// change nothing.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { REPO_ROOT, startBackend, stopProcess, tempDir } from '../../helpers/processes';

const ADMIN_MAIN = join(REPO_ROOT, 'packages/backend/dist/composition/commands/admin.js');

interface AdminResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function admin(
  args: readonly string[],
  env: Record<string, string>,
): { child: ChildProcess; done: Promise<AdminResult> } {
  const child = spawn(process.execPath, [ADMIN_MAIN, ...args], {
    env: { PATH: process.env.PATH ?? '', KANDEV_HTTP_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
  return { child, done };
}

const runAdmin = (args: readonly string[], env: Record<string, string>) => admin(args, env).done;
const mode = (path: string) => statSync(path).mode & 0o777;

describe('admin backup and restore (backend processes)', () => {
  const cleanup = useCleanup();

  test('a backup taken while the backend writes restores into a data dir a second backend serves', async () => {
    const source = await startBackend(cleanup, { LOG_LEVEL: 'warn' });
    const api = new BackendApi(source.ready.url, source.apiToken);
    const workspace = await api.workspace();
    const created: string[] = [];
    const failures: unknown[] = [];
    let writing = true;
    // One writer, one task after another: a consistent snapshot holds a prefix of `created`.
    const writer = (async () => {
      while (writing) {
        try {
          created.push((await api.task(workspace, { title: `task ${created.length}` })).id);
        } catch (error) {
          failures.push(error);
          return;
        }
      }
    })();
    while (created.length < 5) await api.request('GET', '/healthz'); // some rows exist before the copy

    const backupDir = tempDir(cleanup);
    const backupFile = join(backupDir, 'kandev.backup');
    const committedBefore = created.length;
    const backup = await runAdmin(['backup', backupFile], { KANDEV_DATA_DIR: source.dataDir });
    const committedDuring = created.length;
    writing = false;
    await writer;
    expect(failures).toEqual([]); // the backend kept committing while the copy ran
    expect(backup).toMatchObject({ code: 0, stderr: '' });
    expect(backup.stdout).toMatch(/^backed up .*kandev\.sqlite3 to .*kandev\.backup \(\d+ pages, \d+ bytes\)\n$/);
    expect(mode(backupFile)).toBe(0o600);
    expect(readdirSync(backupDir)).toEqual(['kandev.backup']); // one self-contained file, nothing staged left

    // Refusals change nothing: an existing target without --force, a data dir a backend has open.
    const bytes = readFileSync(backupFile);
    const again = await runAdmin(['backup', backupFile], { KANDEV_DATA_DIR: source.dataDir });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('kandev.backup exists: pass --force to replace it; nothing was changed');
    expect(readFileSync(backupFile).equals(bytes)).toBe(true);
    const busy = await runAdmin(['restore', backupFile], { KANDEV_DATA_DIR: source.dataDir });
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(/kandev\.sqlite3 is in use \(a backend is running on this data dir\?\): stop it/);

    expect(await stopProcess(source.child, { graceMs: 10_000 })).toEqual({ code: 0, signal: null });

    // A fresh data dir: the backup, plus the files kept beside it (the key that sealed its secrets, the
    // admin token's file).
    const restoredDir = tempDir(cleanup);
    for (const name of ['secret.key', 'api-token']) copyFileSync(join(source.dataDir, name), join(restoredDir, name));
    const restore = await runAdmin(['restore', backupFile], { KANDEV_DATA_DIR: restoredDir });
    expect(restore).toMatchObject({ code: 0, stderr: '' });
    expect(restore.stdout).toMatch(/^restored .*kandev\.sqlite3 from .*kandev\.backup\n$/);
    expect(mode(join(restoredDir, 'kandev.sqlite3'))).toBe(0o600);

    const restored = await startBackend(cleanup, { KANDEV_DATA_DIR: restoredDir, LOG_LEVEL: 'warn' });
    expect(restored.apiToken).toBe(source.apiToken); // the token row came with the backup
    const restoredApi = new BackendApi(restored.ready.url, source.apiToken);
    const statuses: number[] = [];
    for (const id of created) statuses.push((await restoredApi.request('GET', `/api/tasks/${id}`)).status);
    const held = statuses.filter((status) => status === 200).length;
    expect(statuses).toEqual([...created.map((_, i) => (i < held ? 200 : 404))]); // a prefix: one snapshot
    expect(held).toBeGreaterThanOrEqual(committedBefore);
    expect(held).toBeLessThanOrEqual(committedDuring);
    const first = await restoredApi.request<{ title: string }>('GET', `/api/tasks/${created[0]}`);
    expect(first.body.title).toBe('task 0');
    // And it takes writes.
    expect((await restoredApi.task(await restoredApi.workspace('after restore'), { title: 'new' })).id).toEqual(
      expect.any(String),
    );
    // A graceful stop checkpoints: the data dir keeps the database as one file.
    expect(await stopProcess(restored.child, { graceMs: 10_000 })).toEqual({ code: 0, signal: null });
    expect(readdirSync(restoredDir).filter((name) => name.startsWith('kandev.sqlite3'))).toEqual(['kandev.sqlite3']);
  });

  test('on PostgreSQL both commands refuse and point to pg_dump; a missing database is named', async () => {
    const dataDir = tempDir(cleanup);
    const target = join(tempDir(cleanup), 'b.sqlite3');
    const env = { KANDEV_DATA_DIR: dataDir, KANDEV_DATABASE_URL: 'postgres://kandev@127.0.0.1:5432/kandev' };
    for (const args of [
      ['backup', target],
      ['restore', target],
    ]) {
      const result = await runAdmin(args, env);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/runs on PostgreSQL \(KANDEV_DATABASE_URL is set\): .* pg_dump/);
    }
    const missing = await runAdmin(['backup', target], { KANDEV_DATA_DIR: dataDir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`no database at ${join(dataDir, 'kandev.sqlite3')}`);
    const usage = await runAdmin(['backup'], { KANDEV_DATA_DIR: dataDir });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("missing required argument 'file'");
    expect(existsSync(target)).toBe(false);
  });
});
