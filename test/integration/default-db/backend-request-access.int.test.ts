// Host, Origin and media type on the backend's REST API, against the real built process: a DNS-rebinding
// page (foreign Host), a cross-site page (foreign Origin) and a cross-site form (non-JSON body) are refused
// at their first request and change nothing; configured hosts and origins are served.
import { request as httpRequest } from 'node:http';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { openTestDatabase } from '@kandev/backend/testing';
import { startBackend } from '../../helpers/processes';

interface RawResponse {
  status: number;
  body: { error?: { code: string; message: string; request_id: string } } & Record<string, unknown>;
}

/** One HTTP request with every header as given (fetch does not let a caller set Host). */
function raw(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: text.length > 0 ? (JSON.parse(text) as RawResponse['body']) : {},
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const json = (value: unknown) => JSON.stringify(value);
const profileBody = json({ name: 'pwn', command: 'sh', args: ['-c', 'touch /tmp/kandev-pwned'], supports_mcp: false });

describe('backend REST: Host, Origin and content type', () => {
  const cleanup = useCleanup();

  async function setup(env: Record<string, string> = {}) {
    const backend = await startBackend(cleanup, env);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const port = new URL(backend.ready.url).port;
    const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
      raw(
        backend.ready.url,
        method,
        path,
        {
          // Authenticated: what is refused here is refused for its Host, Origin or media type alone.
          authorization: `Bearer ${backend.apiToken}`,
          ...(body === undefined ? {} : { 'content-length': `${Buffer.byteLength(body)}` }),
          ...headers,
        },
        body,
      );
    const rows = async (table: string): Promise<number> => {
      const db = await openTestDatabase(backend.dataDir);
      try {
        const [row] = await db(table).count<{ n: number }[]>({ n: '*' });
        return Number(row?.n);
      } finally {
        await db.destroy();
      }
    };
    return { backend, api, port, send, rows };
  }

  test('DNS rebinding: a foreign Host is refused at the first request and nothing is created', async () => {
    const { api, port, send } = await setup();
    const attacker = { host: `attacker.example:${port}`, origin: `http://attacker.example:${port}` };
    const first = await send(
      'POST',
      '/api/agent-profiles',
      { ...attacker, 'content-type': 'application/json' },
      profileBody,
    );
    expect(first.status).toBe(403);
    expect(first.body.error).toEqual({
      code: 'permission_denied',
      message: expect.stringMatching(
        /Host "attacker\.example" is not served by this backend.*KANDEV_ALLOWED_HOSTS/,
      ) as string,
      request_id: expect.any(String) as string,
    });
    // Even a request without Origin (a rebinding page's same-origin GET) learns nothing.
    expect((await send('GET', '/api/agent-profiles', { host: attacker.host })).status).toBe(403);
    expect((await api.request('GET', '/api/agent-profiles')).body).toEqual({ agent_profiles: [] });
  });

  test('cross-site: a foreign Origin on an allowed Host is refused and changes nothing', async () => {
    const { port, send, rows } = await setup();
    const workspaces = await rows('workspaces');
    for (const origin of ['https://evil.example', 'http://127.0.0.1:1', 'null']) {
      const response = await send(
        'POST',
        '/api/workspaces',
        { host: `127.0.0.1:${port}`, origin, 'content-type': 'application/json' },
        json({ name: 'cross-site' }),
      );
      expect({ origin, status: response.status, code: response.body.error?.code }).toEqual({
        origin,
        status: 403,
        code: 'permission_denied',
      });
      expect(response.body.error?.message).toMatch(/Origin.*KANDEV_ALLOWED_ORIGINS/);
    }
    expect(await rows('workspaces')).toBe(workspaces);
    // The backend's own origin (a page it served, or a tool that sets it) is fine.
    const own = await send(
      'POST',
      '/api/workspaces',
      { host: `localhost:${port}`, origin: `http://localhost:${port}`, 'content-type': 'application/json' },
      json({ name: 'same-origin' }),
    );
    expect(own.status).toBe(201);
    expect(await rows('workspaces')).toBe(workspaces + 1);
  });

  test('a form or text/plain POST to launch a session gets 415 and no session exists', async () => {
    const { api, port, send, rows } = await setup();
    const workspaceId = await api.workspace('main');
    const task = await api.task(workspaceId, { title: 'target' });
    const path = `/api/tasks/${task.id}/sessions`;
    const host = `127.0.0.1:${port}`;
    const bodies: [string, string][] = [
      ['application/x-www-form-urlencoded', 'executor=local'],
      ['text/plain', json({ executor: 'local' })],
      ['multipart/form-data; boundary=x', '--x--'],
    ];
    for (const [contentType, body] of bodies) {
      const response = await send('POST', path, { host, 'content-type': contentType }, body);
      expect({ contentType, status: response.status, code: response.body.error?.code }).toEqual({
        contentType,
        status: 415,
        code: 'unsupported_media_type',
      });
      expect(response.body.error?.message).toMatch(/application\/json/);
    }
    expect(await rows('sessions')).toBe(0);
    // A bodiless POST stays fine (no content type needed): here it launches the session.
    const bodiless = await send('POST', path, { host, 'content-length': '0' });
    expect(bodiless.status).toBe(201);
    expect(await rows('sessions')).toBe(1);
  });

  test('KANDEV_ALLOWED_HOSTS and KANDEV_ALLOWED_ORIGINS extend the lists; probes answer any Host', async () => {
    const { port, send } = await setup({
      KANDEV_ALLOWED_HOSTS: 'kandev.internal, backend',
      KANDEV_ALLOWED_ORIGINS: 'https://ui.example.com',
    });
    for (const host of ['kandev.internal', `backend:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      expect({ host, status: (await send('GET', '/api/agent-profiles', { host })).status }).toEqual({
        host,
        status: 200,
      });
    }
    const fromUi = await send(
      'POST',
      '/api/workspaces',
      { host: 'kandev.internal', origin: 'https://ui.example.com', 'content-type': 'application/json; charset=utf-8' },
      json({ name: 'from the ui' }),
    );
    expect(fromUi.status).toBe(201);
    expect((await send('GET', '/api/agent-profiles', { host: 'other.internal' })).status).toBe(403);
    expect(
      (await send('GET', '/api/agent-profiles', { host: 'kandev.internal', origin: 'https://ui2.example.com' })).status,
    ).toBe(403);
    const probe = await send('GET', '/healthz', { host: '10.1.2.3:7420', origin: 'https://evil.example' });
    expect(probe).toEqual({ status: 200, body: { status: 'ok' } });
  });
});
