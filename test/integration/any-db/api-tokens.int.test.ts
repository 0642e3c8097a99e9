// Operator API tokens (docs/security.md, "Operator API tokens"): every /api route needs a bearer token;
// the first start writes an admin token to <data dir>/api-token (0600) and stores only its hash.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { databaseHolds } from '@kandev/backend/testing';
import { startBackend, stopProcess } from '../../helpers/processes';

interface ErrorBody {
  error: { code: string; message: string };
}

interface TokenView {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

describe('operator API tokens', () => {
  const cleanup = useCleanup();

  test('first start: an admin token in <data dir>/api-token (0600), named in the ready line, hashed in the db', async () => {
    const backend = await startBackend(cleanup);
    const file = join(backend.dataDir, 'api-token');
    expect(backend.ready.apiTokenFile).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(backend.apiToken).toMatch(/^kdv_[\w-]{40,}$/);
    expect(backend.logs()).not.toContain(backend.apiToken);

    const anonymous = new BackendApi(backend.ready.url);
    const missing = await anonymous.request<ErrorBody>('GET', '/api/agent-profiles');
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatchObject({ code: 'unauthenticated' });
    expect(missing.body.error.message).not.toContain(file); // an unauthenticated caller learns no path
    const wrong = await new BackendApi(backend.ready.url, `${backend.apiToken}x`).request<ErrorBody>(
      'POST',
      '/api/workspaces',
      { name: 'nope' },
    );
    expect(wrong.status).toBe(401);
    expect(JSON.stringify(wrong.body)).not.toContain(backend.apiToken);
    expect(await fetch(`${backend.ready.url}/healthz`).then((r) => r.status)).toBe(200);

    const admin = new BackendApi(backend.ready.url, backend.apiToken);
    expect(
      (await admin.request<{ agent_profiles: unknown[] }>('GET', '/api/agent-profiles')).body.agent_profiles,
    ).toEqual(expect.any(Array));
    const listed = (await admin.request<{ tokens: TokenView[] }>('GET', '/api/tokens')).body.tokens;
    expect(listed).toEqual([
      {
        id: expect.any(String),
        name: 'admin',
        prefix: backend.apiToken.slice(0, 10),
        // The token file's token: admin over every workspace, minted by no other token.
        role: 'admin',
        workspaces: null,
        created_by: null,
        created_at: expect.any(String),
        last_used_at: expect.any(String),
      },
    ]);
    expect(await databaseHolds(backend.dataDir, backend.apiToken)).toBe(false);
  });

  test('a named token: shown once, works, listed without its value; revoked, it gets 401', async () => {
    const backend = await startBackend(cleanup);
    const admin = new BackendApi(backend.ready.url, backend.apiToken);
    const created = await admin.create<TokenView & { token: string }>('/api/tokens', { name: 'ci' });
    expect(created).toMatchObject({ name: 'ci', last_used_at: null, token: expect.stringMatching(/^kdv_/) });
    expect(created.token.startsWith(created.prefix)).toBe(true);

    const ci = new BackendApi(backend.ready.url, created.token);
    expect((await ci.request('POST', '/api/workspaces', { name: 'by ci' })).status).toBe(201);
    const list = await admin.request<{ tokens: TokenView[] }>('GET', '/api/tokens');
    expect(JSON.stringify(list.body)).not.toContain(created.token);
    const entry = list.body.tokens.find((t) => t.id === created.id);
    expect(entry).toEqual({
      id: created.id,
      name: 'ci',
      prefix: created.prefix,
      role: 'admin',
      workspaces: null,
      // Minted with the token file's token.
      created_by: list.body.tokens.find((t) => t.name === 'admin')?.id,
      created_at: created.created_at,
      last_used_at: expect.any(String),
    });
    expect(Object.keys(entry ?? {})).not.toContain('token_hash');
    expect(await databaseHolds(backend.dataDir, created.token)).toBe(false);

    expect((await admin.request('DELETE', `/api/tokens/${created.id}`)).status).toBe(204);
    const revoked = await ci.request<ErrorBody>('GET', '/api/agent-profiles');
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('unauthenticated');
    expect((await admin.request('DELETE', `/api/tokens/${created.id}`)).status).toBe(404);
    expect((await admin.request<{ tokens: TokenView[] }>('GET', '/api/tokens')).body.tokens.map((t) => t.name)).toEqual(
      ['admin'],
    );
    expect((await admin.request('POST', '/api/tokens', { name: '' })).status).toBe(400);
  });

  test('a restart reuses the token file while its token is active; once revoked, a new admin token is written', async () => {
    const first = await startBackend(cleanup);
    expect(await stopProcess(first.child, { graceMs: 10_000 })).toEqual({ code: 0, signal: null });
    const second = await startBackend(cleanup, { KANDEV_DATA_DIR: first.dataDir });
    expect(second.ready.apiTokenFile).toBe(first.ready.apiTokenFile);
    expect(second.apiToken).toBe(first.apiToken);
    const admin = new BackendApi(second.ready.url, first.apiToken);
    expect((await admin.request('GET', '/api/agent-profiles')).status).toBe(200);

    const ci = await admin.create<TokenView & { token: string }>('/api/tokens', { name: 'ci' });
    const adminId = (await admin.request<{ tokens: TokenView[] }>('GET', '/api/tokens')).body.tokens.find(
      (t) => t.name === 'admin',
    )?.id;
    expect((await admin.request('DELETE', `/api/tokens/${String(adminId)}`)).status).toBe(204);
    expect(await stopProcess(second.child, { graceMs: 10_000 })).toEqual({ code: 0, signal: null });

    const third = await startBackend(cleanup, { KANDEV_DATA_DIR: first.dataDir });
    expect(third.apiToken).not.toBe(first.apiToken);
    expect(statSync(join(first.dataDir, 'api-token')).mode & 0o777).toBe(0o600);
    const status = (token: string) =>
      new BackendApi(third.ready.url, token).request('GET', '/api/agent-profiles').then((r) => r.status);
    expect(await status(third.apiToken)).toBe(200);
    expect(await status(first.apiToken)).toBe(401);
    expect(await status(ci.token)).toBe(200);
  });

  test('KANDEV_API_TOKEN: that token is accepted, no token file is written, a 401 names nothing of it', async () => {
    const token = 'operator-chosen-token-0123456789abcdef';
    const backend = await startBackend(cleanup, { KANDEV_API_TOKEN: token });
    expect(backend.ready.apiTokenFile).toBeUndefined();
    expect(existsSync(join(backend.dataDir, 'api-token'))).toBe(false);
    expect((await new BackendApi(backend.ready.url, token).request('GET', '/api/agent-profiles')).status).toBe(200);
    const missing = await new BackendApi(backend.ready.url).request<ErrorBody>('GET', '/api/agent-profiles');
    expect(missing.status).toBe(401);
    expect(missing.body.error.message).not.toContain('KANDEV_API_TOKEN');
    expect(missing.body.error.message).not.toContain(token);
  });
});
