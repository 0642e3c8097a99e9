// The backend's REST listener under bad input and slow clients, against the real built process:
// malformed percent-encoding and a local_path that is a file are 400s that store nothing, and sockets
// that never finish a request (or idle after one) are closed by the configured timeouts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { openTestDatabase } from '@kandev/backend/testing';
import { startBackend, tempDir } from '../../helpers/processes';
import { closedByServer, IDLE_AFTER_REQUEST, INCOMPLETE_BODY, INCOMPLETE_HEADERS } from '../../helpers/slow-client';

/** Row counts of the tables a registration writes, straight from the backend's database. */
async function rowCounts(dataDir: string): Promise<Record<string, number>> {
  const db = await openTestDatabase(dataDir);
  try {
    const counts: Record<string, number> = {};
    for (const table of ['repositories', 'task_repositories']) {
      const [row] = await db(table).count<{ n: number }[]>({ n: '*' });
      counts[table] = Number(row?.n);
    }
    return counts;
  } finally {
    await db.destroy();
  }
}

describe('backend REST: 4xx for bad input, timeouts for slow clients', () => {
  const cleanup = useCleanup();

  test('malformed percent-encoding in a path -> 400 invalid_argument, never 500', async () => {
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    for (const path of ['/api/tasks/%ZZ', '/api/workspaces/%E0%A4%A', '/api/sessions/%ZZ/prompts']) {
      const response = await api.request<{ error: { code: string; message: string } }>('GET', path);
      expect({ path, status: response.status, error: response.body.error }).toMatchObject({
        path,
        status: 400,
        error: { code: 'invalid_argument', message: expect.stringMatching(/percent-encoding/) },
      });
    }
  });

  test('a local_path that is a file -> 400 at every door, nothing stored; a directory is accepted', async () => {
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const workspaceId = await api.workspace('main');
    const task = await api.task(workspaceId, { title: 'needs a checkout' });
    const dir = tempDir(cleanup);
    const file = join(dir, 'not-a-checkout.txt');
    writeFileSync(file, 'a file\n');
    const before = await rowCounts(backend.dataDir);

    const registered = await api.request('POST', '/api/repositories', { workspace_id: workspaceId, local_path: file });
    const attached = await api.request('POST', `/api/tasks/${task.id}/workspace-sources`, {
      sources: [{ local_path: dir }, { local_path: file }],
    });
    for (const response of [registered, attached]) {
      expect(response).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_argument', message: expect.stringMatching(/must be a directory/) } },
      });
    }
    expect(await rowCounts(backend.dataDir)).toEqual(before);
    expect(
      (await api.request('POST', '/api/repositories', { workspace_id: workspaceId, local_path: dir })).status,
    ).toBe(201);
  });

  test('HTTP timeouts: unfinished headers, an unfinished body and an idle keep-alive socket are closed', async () => {
    const backend = await startBackend(cleanup, {
      KANDEV_HTTP_HEADERS_TIMEOUT_MS: '300',
      KANDEV_HTTP_REQUEST_TIMEOUT_MS: '600',
      KANDEV_HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
    });
    const port = backend.ready.httpPort;
    const auth = { Authorization: `Bearer ${backend.apiToken}` };
    const [headers, body, idle] = await Promise.all([
      closedByServer(port, INCOMPLETE_HEADERS('/api/workspaces')),
      closedByServer(port, INCOMPLETE_BODY('/api/workspaces', auth)),
      closedByServer(port, IDLE_AFTER_REQUEST('/healthz')),
    ]);
    expect(headers.received).toMatch(/^(HTTP\/1\.1 408|$)/);
    expect(body.received).toMatch(/^(HTTP\/1\.1 408|$)/);
    expect(idle.received).toMatch(/^HTTP\/1\.1 200/);
  });
});
