// Failed authentication is limited per client address, against a real backend (the counts live in
// memory: the database does not matter). The documented default (10 failures in a minute,
// docs/security.md) refuses the 11th attempt from that address with 429 and Retry-After, on /api
// (bearer) and POST /login alike, while another address is unaffected. Addresses differ for real: each client binds its socket to its own loopback address.
import { request as httpRequest } from 'node:http';
import { useCleanup } from '../../helpers/cleanup';
import { startBackend } from '../../helpers/processes';

/** The documented defaults: KANDEV_AUTH_FAILURE_LIMIT, KANDEV_AUTH_FAILURE_WINDOW_MS. */
const LIMIT = 10;
const WINDOW_S = 60;

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: string;
}

/** One request from `from` (the socket's local address: what the backend sees as the client). */
function send(
  url: string,
  from: string,
  method: string,
  path: string,
  options: { bearer?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method, headers, localAddress: from, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: res.headers['retry-after'],
          body: text,
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('failed authentication is limited per client address', () => {
  const cleanup = useCleanup();

  test('the 11th bad bearer or login from one address is a 429 with Retry-After; another address goes on', async () => {
    const backend = await startBackend(cleanup);
    const url = backend.ready.url;
    const good = backend.apiToken;
    const bad = `${good}x`;
    const get = (from: string, bearer: string) => send(url, from, 'GET', '/api/workspaces', { bearer });
    const login = (from: string, token: string) => send(url, from, 'POST', '/login', { body: { token } });

    // Successes are never counted: one short of the limit, then any number of successes, all served.
    for (let i = 0; i < LIMIT - 1; i += 1) expect((await get('127.0.0.2', bad)).status).toBe(401);
    for (let i = 0; i < 2 * LIMIT; i += 1) expect((await get('127.0.0.2', good)).status).toBe(200);
    expect((await get('127.0.0.2', bad)).status).toBe(401); // the 10th failure
    const refused = await get('127.0.0.2', bad);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(WINDOW_S);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'too_many_requests' } });
    expect(refused.body).not.toContain(good);
    // While refused, the address is not checked at all (no token is looked up): a good one waits too.
    expect((await get('127.0.0.2', good)).status).toBe(429);
    expect((await login('127.0.0.2', good)).status).toBe(429);

    // Another address: its own count, untouched by the first's.
    expect((await get('127.0.0.1', bad)).status).toBe(401);
    expect((await get('127.0.0.1', good)).status).toBe(200);

    // POST /login counts the same way, from a third address.
    for (let i = 0; i < LIMIT; i += 1) expect((await login('127.0.0.3', bad)).status).toBe(401);
    const loginRefused = await login('127.0.0.3', bad);
    expect(loginRefused.status).toBe(429);
    expect(loginRefused.retryAfter).toMatch(/^[1-9]\d*$/);
    expect((await login('127.0.0.1', good)).status).toBe(204);
  });
});
