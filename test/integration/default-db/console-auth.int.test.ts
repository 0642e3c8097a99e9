// The web console's serving and sign-in against the real backend (docs/console.md): the static page
// under a strict CSP, POST /login's HttpOnly SameSite=Strict cookie, the same-origin rule for changes
// the cookie authenticates (refused: nothing written), logout, revocation, one-time sign-in links, and
// no token or code in the logs.
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { startBackend } from '../../helpers/processes';

interface Sent {
  status: number;
  headers: Headers;
  body: string;
}

describe('web console: static page, cookie sign-in, CSRF', () => {
  const cleanup = useCleanup();

  async function backendWith() {
    const backend = await startBackend(cleanup);
    const base = backend.ready.url;
    const send = async (
      method: string,
      path: string,
      options: { cookie?: string; origin?: string; body?: unknown; bearer?: string; encoding?: string } = {},
    ): Promise<Sent> => {
      const headers: Record<string, string> = {};
      if (options.cookie !== undefined) headers.cookie = `kandev_session=${options.cookie}`;
      if (options.origin !== undefined) headers.origin = options.origin;
      if (options.encoding !== undefined) headers['accept-encoding'] = options.encoding;
      if (options.bearer !== undefined) headers.authorization = `Bearer ${options.bearer}`;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${base}${path}`, {
        method,
        headers,
        redirect: 'manual',
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      return { status: response.status, headers: response.headers, body: await response.text() };
    };
    const api = new BackendApi(base, backend.apiToken);
    return { backend, base, send, api };
  }

  test('/ serves the built console under a CSP without inline script; its assets are public', async () => {
    const { send } = await backendWith();
    const page = await send('GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/); // every script has a src
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const asset = await send('GET', script ?? '');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    const unauthenticated = await send('GET', '/api/tasks');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body).not.toContain('api-token'); // no hint where the token file is
  });

  test('the build is served precompressed by Accept-Encoding (brotli, else gzip), with Vary', async () => {
    const { send } = await backendWith();
    const page = await send('GET', '/', { encoding: 'identity' });
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1] ?? '';
    const plain = await send('GET', script, { encoding: 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/Accept-Encoding/i);
    for (const [accept, coding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
    ] as const) {
      const packed = await send('GET', script, { encoding: accept });
      expect(packed.headers.get('content-encoding')).toBe(coding);
      expect(packed.headers.get('content-type')).toMatch(/javascript/);
      expect(packed.body).toBe(plain.body); // fetch decodes it: the same script
    }
    const index = await send('GET', '/', { encoding: 'br' });
    expect(index.headers.get('content-encoding')).toBe('br');
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    const icon = await send('GET', '/favicon.svg', { encoding: 'identity' });
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  test('login sets an HttpOnly SameSite=Strict cookie that authenticates reads; a bad token sets none', async () => {
    const { backend, send } = await backendWith();
    const wrong = await send('POST', '/login', { body: { token: `${backend.apiToken}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(wrong.body).not.toContain(backend.ready.apiTokenFile ?? 'api-token');
    expect(wrong.body).not.toContain(backend.apiToken);

    const ok = await send('POST', '/login', { body: { token: backend.apiToken } });
    expect(ok.status).toBe(204);
    const cookie = ok.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^kandev_session=[^;]+; Path=\/; HttpOnly; SameSite=Strict$/);
    expect((await send('GET', '/api/workspaces', { cookie: backend.apiToken })).status).toBe(200);
    expect((await send('GET', '/api/workspaces', { cookie: 'kdv_forged' })).status).toBe(401);

    const out = await send('POST', '/logout');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^kandev_session=; .*Max-Age=0/);
    expect(backend.logs()).not.toContain(backend.apiToken);
  });

  test('a change the cookie authenticates needs our own Origin: none or a foreign one is 403, nothing written', async () => {
    const { backend, base, send, api } = await backendWith();
    const cookie = backend.apiToken;
    const body = { name: 'from-a-cookie' };
    const noOrigin = await send('POST', '/api/workspaces', { cookie, body });
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.body).toContain('same-origin');
    // Same site (localhost), other port: the cookie would ride along; the Origin gives it away.
    const otherPort = await send('POST', '/api/workspaces', { cookie, body, origin: 'http://127.0.0.1:1' });
    expect(otherPort.status).toBe(403);
    const foreign = await send('POST', '/api/workspaces', { cookie, body, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect((await api.request<{ workspaces: unknown[] }>('GET', '/api/workspaces')).body.workspaces).toEqual([]);

    expect((await send('POST', '/api/workspaces', { cookie, body, origin: base })).status).toBe(201);
    // The bearer token (CLI, scripts) needs no Origin.
    expect((await send('POST', '/api/workspaces', { bearer: backend.apiToken, body })).status).toBe(201);
  });

  test('a revoked token signs its cookie out', async () => {
    const { send, api, base } = await backendWith();
    const created = await api.create<{ id: string; token: string }>('/api/tokens', { name: 'browser' });
    expect((await send('GET', '/api/workspaces', { cookie: created.token })).status).toBe(200);
    expect((await api.request('DELETE', `/api/tokens/${created.id}`)).status).toBe(204);
    expect((await send('GET', '/api/workspaces', { cookie: created.token })).status).toBe(401);
    expect((await send('POST', '/login', { body: { token: created.token }, origin: base })).status).toBe(401);
  });

  test('a one-time sign-in link: token-gated to issue, sets the cookie once, then redirects as invalid', async () => {
    const { backend, base, send } = await backendWith();
    expect((await send('POST', '/api/console/login-links', { body: {} })).status).toBe(401);
    const issued = await send('POST', '/api/console/login-links', { bearer: backend.apiToken, body: {} });
    expect(issued.status).toBe(201);
    const link = JSON.parse(issued.body) as { url: string; expires_at: string };
    expect(link.url).toMatch(new RegExp(`^${base}/login\\?code=[\\w-]{20,}$`));
    expect(link.url).not.toContain(backend.apiToken);
    const path = link.url.slice(base.length);

    const first = await send('GET', path);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/');
    expect(first.headers.get('set-cookie')).toMatch(/^kandev_session=[^;]+; Path=\/; HttpOnly; SameSite=Strict$/);
    const second = await send('GET', path);
    expect(second.status).toBe(303);
    expect(second.headers.get('location')).toBe('/#/signin-link-invalid');
    expect(second.headers.get('set-cookie')).toBeNull();
    expect((await send('GET', '/login?code=guessed')).headers.get('set-cookie')).toBeNull();
    expect(backend.logs()).not.toContain(path.split('=')[1]);
  });
});
