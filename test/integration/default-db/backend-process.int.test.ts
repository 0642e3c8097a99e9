// The backend daemon's process contract: ready line, SIGTERM stops its agentctl and exits 0, bad config exits 2.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { BACKEND_MAIN, isPidAlive, startBackend, stopProcess, tempDir } from '../../helpers/processes';
import { useCleanup } from '../../helpers/cleanup';
import { waitUntil } from '../../helpers/wait';

describe('backend process', () => {
  const cleanup = useCleanup();

  test('prints one ready line, serves /healthz, and on SIGTERM stops its agentctl and exits 0', async () => {
    const backend = await startBackend(cleanup);
    const { ready } = backend;
    expect(ready).toEqual({
      event: 'ready',
      httpPort: expect.any(Number),
      url: `http://127.0.0.1:${ready.httpPort}`,
      apiTokenFile: `${backend.dataDir}/api-token`,
      agentctl: {
        pid: expect.any(Number),
        grpcAddress: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
        mcpUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      },
    });
    expect(await fetch(`${ready.url}/healthz`).then((r) => r.json())).toEqual({ status: 'ok' });
    expect(isPidAlive(ready.agentctl.pid)).toBe(true);

    expect(await stopProcess(backend.child, { graceMs: 10_000 })).toEqual({ code: 0, signal: null });
    await waitUntil(() => !isPidAlive(ready.agentctl.pid), { timeoutMs: 5_000, what: 'agentctl to exit' });
  });

  test('bad configuration: one stderr line naming the variables, exit 2, nothing started', async () => {
    const child = spawn(process.execPath, [BACKEND_MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        KANDEV_DATA_DIR: tempDir(cleanup),
        KANDEV_HTTP_PORT: 'eighty',
        LOG_LEVEL: 'loud',
        KANDEV_AGENTCTL_TOKEN: 'short-secret',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('backend: invalid configuration: KANDEV_AGENTCTL_TOKEN, KANDEV_HTTP_PORT, LOG_LEVEL\n');
    expect(stderr).not.toContain('short-secret');
  });
});
