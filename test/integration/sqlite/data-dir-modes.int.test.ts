// Files at rest: a real backend creates its data dir 0700 and every file that may hold a secret 0600,
// whatever it finds; a data dir left readable by others (an older version, a copied backup) is
// tightened at start with one warning that names paths, never contents.
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { startBackend, stopProcess, tempDir } from '../../helpers/processes';

const mode = (path: string) => statSync(path).mode & 0o777;

/** Every file the backend keeps in its data dir that may hold a secret, with its mode. */
function privateFileModes(dataDir: string): Record<string, number> {
  const names = readdirSync(dataDir).filter(
    (name) =>
      name.startsWith('kandev.sqlite3') || ['agentctl.log', 'agentctl.json', 'api-token', 'secret.key'].includes(name),
  );
  return Object.fromEntries(names.map((name) => [name, mode(join(dataDir, name))]));
}

describe('data dir modes', () => {
  const cleanup = useCleanup();

  test('a fresh data dir is 0700; the database, its side files, agentctl.log and agentctl.json 0600', async () => {
    const dataDir = join(tempDir(cleanup), 'nested', 'data');
    const backend = await startBackend(cleanup, { KANDEV_DATA_DIR: dataDir });
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    await api.task(await api.workspace(), { title: 'a write, so SQLite has journalled' });

    expect(mode(dataDir)).toBe(0o700);
    const files = privateFileModes(dataDir);
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(['kandev.sqlite3', 'agentctl.log', 'agentctl.json', 'api-token', 'secret.key']),
    );
    for (const [name, fileMode] of Object.entries(files))
      expect({ name, mode: fileMode }).toEqual({ name, mode: 0o600 });
    expect(backend.logs()).not.toContain('tightened data dir permissions');
    expect(await stopProcess(backend.child, { graceMs: 10_000 })).toEqual({ code: 0, signal: null });
  });

  test('an existing 0755 dir with 0644 files is tightened at start, with one warning naming the paths', async () => {
    const dataDir = join(tempDir(cleanup), 'data');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    const first = await startBackend(cleanup, { KANDEV_DATA_DIR: dataDir });
    expect(await stopProcess(first.child, { graceMs: 10_000 })).toEqual({ code: 0, signal: null });
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'kandev.sqlite3'), 0o644);
    chmodSync(join(dataDir, 'agentctl.log'), 0o644);
    chmodSync(join(dataDir, 'api-token'), 0o644);
    chmodSync(join(dataDir, 'secret.key'), 0o644);
    writeFileSync(join(dataDir, 'kandev.sqlite3-journal'), '', { mode: 0o644 }); // a leftover (empty: nothing to roll back)
    chmodSync(join(dataDir, 'kandev.sqlite3-journal'), 0o644);

    const second = await startBackend(cleanup, { KANDEV_DATA_DIR: dataDir });
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'kandev.sqlite3'))).toBe(0o600);
    expect(mode(join(dataDir, 'agentctl.log'))).toBe(0o600);
    expect(mode(join(dataDir, 'api-token'))).toBe(0o600);
    expect(mode(join(dataDir, 'secret.key'))).toBe(0o600);
    const warnings = second
      .logs()
      .split('\n')
      .filter((line) => line.includes('tightened data dir permissions'));
    expect(warnings).toHaveLength(1);
    const warning = JSON.parse(warnings[0] ?? '{}') as { level: number; paths: string[] };
    expect(warning.level).toBe(40); // pino warn
    expect([...warning.paths].sort()).toEqual(
      [
        dataDir,
        join(dataDir, 'kandev.sqlite3'),
        join(dataDir, 'kandev.sqlite3-journal'),
        join(dataDir, 'agentctl.log'),
        join(dataDir, 'api-token'),
        join(dataDir, 'secret.key'),
      ].sort(),
    );
    expect(await stopProcess(second.child, { graceMs: 10_000 })).toEqual({ code: 0, signal: null });
  });
});
