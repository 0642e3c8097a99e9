// The backend's REST API against the real built process (with its own local agentctl):
// workspaces, repositories (provider identity stored once) and the error contract of every route.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { startBackend, stopProcess } from '../../helpers/processes';
import { countRows, type ErrorBody, expectError, type Json, startRestBackend } from '../../helpers/rest-backend';

const GITLAB_HOSTS = 'git.corp.example, Code.Example.org';

describe('backend REST: workspaces, repositories, errors', () => {
  const cleanup = useCleanup();

  const setup = (env: Record<string, string> = {}) =>
    startRestBackend(cleanup, { KANDEV_GITLAB_HOSTS: GITLAB_HOSTS, ...env });

  test('workspaces: create, read back, unknown id -> 404 with a request id', async () => {
    const { backend, api } = await setup();
    const created = await api.request<Json>('POST', '/api/workspaces', { name: '  Team  ' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'Team', created_at: expect.any(String) });
    expect((await api.request('GET', `/api/workspaces/${String(created.body.id)}`)).body).toEqual(created.body);

    const missing = await fetch(`${backend.ready.url}/api/workspaces/nope`, {
      headers: { 'x-request-id': 'req-42', authorization: `Bearer ${backend.apiToken}` },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-request-id')).toBe('req-42');
    expect(await missing.json()).toEqual({
      error: { code: 'not_found', message: 'workspace nope not found', request_id: 'req-42' },
    });
  });

  test('repositories: provider derived once from the host or an explicit value, and stored', async () => {
    const { api, workspaceId } = await setup();
    const cases: [Json, string | null][] = [
      [{ remote_url: 'https://github.com/acme/api.git' }, 'github'],
      [{ remote_url: 'git@gitlab.com:acme/group/web.git' }, 'gitlab'],
      [{ remote_url: 'ssh://git@git.corp.example:2222/team/svc.git' }, 'gitlab'],
      [{ remote_url: 'https://CODE.example.org/team/ui' }, 'gitlab'],
      [{ remote_url: 'https://bitbucket.org/acme/lib.git' }, null],
      [{ remote_url: 'https://git.unknown.example/acme/x' }, null],
      [{ local_path: '/srv/checkouts/tool' }, null],
      [{ remote_url: 'https://git.unknown.example/acme/y', provider: ' GitLab ' }, 'gitlab'],
      [{ remote_url: 'https://github.com/acme/blank', provider: '' }, 'github'],
      [{ remote_url: 'https://github.com/acme/svn', provider: 'svn' }, null],
      [{ local_path: '/srv/checkouts/gh', provider: 'GITHUB' }, 'github'],
    ];
    for (const [source, provider] of cases) {
      const created = await api.repository(workspaceId, source);
      const stored = await api.request<Json>('GET', `/api/repositories/${created.id}`);
      expect({ source, created: created.provider, stored: stored.body.provider }).toEqual({
        source,
        created: provider,
        stored: provider,
      });
    }
  });

  test('repositories: the response shape, credentials stripped, nested GitLab groups', async () => {
    const { api, workspaceId } = await setup();
    const created = await api.request<Json>('POST', '/api/repositories', {
      workspace_id: workspaceId,
      remote_url: 'https://oauth2:glpat-secret@GitLab.com:443/Acme/Platform/Web.git',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      workspace_id: workspaceId,
      source_type: 'remote',
      provider: 'gitlab',
      provider_host: 'gitlab.com',
      owner: 'Acme/Platform',
      name: 'Web',
      remote_url: 'https://gitlab.com/Acme/Platform/Web.git',
      local_path: null,
      created_at: expect.any(String),
    });
    const local = await api.request<Json>('POST', '/api/repositories', {
      workspace_id: workspaceId,
      local_path: '/srv/a/../tool/',
      name: 'Tool',
    });
    expect(local.body).toMatchObject({ source_type: 'local', provider: null, name: 'Tool', local_path: '/srv/tool' });
  });

  test('identity is not re-derived: a restart with other GitLab hosts keeps the stored provider', async () => {
    const first = await setup();
    const repo = await first.api.repository(first.workspaceId, { remote_url: 'https://git.corp.example/team/svc' });
    const task = await first.api.task(first.workspaceId, { title: 't', repository_ids: [repo.id] });
    expect(repo.provider).toBe('gitlab');
    expect(await stopProcess(first.backend.child, { graceMs: 5_000 })).toEqual({ code: 0, signal: null });

    const second = await startBackend(cleanup, { KANDEV_DATA_DIR: first.backend.dataDir, KANDEV_GITLAB_HOSTS: '' });
    const api = new BackendApi(second.ready.url, second.apiToken);
    expect((await api.request<Json>('GET', `/api/repositories/${repo.id}`)).body.provider).toBe('gitlab');
    expect((await api.request<Json>('GET', `/api/tasks/${task.id}`)).body.providers).toEqual(['gitlab']);
    const again = await api.request('POST', '/api/repositories', {
      workspace_id: first.workspaceId,
      remote_url: 'https://git.corp.example/team/other',
    });
    expect((again.body as Json).provider).toBeNull();
  });

  test('repositories: one identity per workspace -> 409 with the existing id, whatever the URL form', async () => {
    const { api, workspaceId } = await setup();
    const original = await api.repository(workspaceId, { remote_url: 'https://github.com/Acme/API.git' });
    for (const remote_url of ['git@github.com:acme/api.git', 'https://user:token@GITHUB.com/acme/api/']) {
      const duplicate = await api.request('POST', '/api/repositories', { workspace_id: workspaceId, remote_url });
      const body = expectError(duplicate, 409, 'already_exists');
      expect(body.error.details).toEqual({ existing_id: original.id });
    }
    const local = await api.repository(workspaceId, { local_path: '/srv/x' });
    const localAgain = await api.request('POST', '/api/repositories', {
      workspace_id: workspaceId,
      local_path: '/srv/x/',
    });
    expect(expectError(localAgain, 409, 'already_exists').error.details).toEqual({ existing_id: local.id });
    const otherWorkspace = await api.workspace('other');
    expect((await api.repository(otherWorkspace, { remote_url: 'https://github.com/acme/api' })).id).not.toBe(
      original.id,
    );
  });

  test('repositories: invalid sources -> 400, unknown workspace -> 404', async () => {
    const { api, workspaceId } = await setup();
    const bad: Json[] = [
      { workspace_id: workspaceId },
      { workspace_id: workspaceId, remote_url: 'https://github.com/a/b', local_path: '/srv/b' },
      { workspace_id: workspaceId, remote_url: 'not a url' },
      { workspace_id: workspaceId, remote_url: 'https://github.com/only-owner' },
      { workspace_id: workspaceId, local_path: 'relative/path' },
      { workspace_id: workspaceId, remote_url: 'https://github.com/a/b', branch: 'main' },
    ];
    for (const body of bad) expectError(await api.request('POST', '/api/repositories', body), 400, 'invalid_argument');
    const unknown = await api.request('POST', '/api/repositories', {
      workspace_id: 'nope',
      remote_url: 'https://github.com/a/b',
    });
    expectError(unknown, 404, 'not_found', /workspace nope/);
  });

  test('unknown fields -> 400 naming the field, on every body', async () => {
    const { api, workspaceId } = await setup();
    const task = await api.task(workspaceId, { title: 't' });
    const requests: [string, string, Json, string][] = [
      ['POST', '/api/workspaces', { name: 'w', color: 'red' }, 'color'],
      ['POST', '/api/repositories', { workspace_id: workspaceId, local_path: '/srv/a', private: true }, 'private'],
      ['POST', '/api/tasks', { workspace_id: workspaceId, title: 't', priority: 1 }, 'priority'],
      ['PATCH', `/api/tasks/${task.id}`, { priority: 1 }, 'priority'],
      ['POST', `/api/tasks/${task.id}/sessions`, { question_capability: 'none' }, 'question_capability'],
    ];
    for (const [method, path, body, field] of requests) {
      const error = expectError(await api.request(method, path, body), 400, 'invalid_argument');
      expect({ path, issues: error.error.details?.issues }).toEqual({
        path,
        issues: [{ path: '', message: expect.stringMatching(new RegExp(`unrecognized key.*${field}`, 'i')) }],
      });
    }
  });

  test('unknown ids -> 404 on every route', async () => {
    const { api } = await setup();
    const requests: [string, string, Json?][] = [
      ['GET', '/api/workspaces/missing'],
      ['GET', '/api/repositories/missing'],
      ['GET', '/api/tasks/missing'],
      ['PATCH', '/api/tasks/missing', { title: 'x' }],
      ['POST', '/api/tasks/missing/sessions', {}],
      ['GET', '/api/sessions/missing'],
      ['GET', '/api/no-such-route'],
    ];
    for (const [method, path, body] of requests) expectError(await api.request(method, path, body), 404, 'not_found');
  });

  test('malformed JSON -> 400, oversized body -> 413, non-JSON body -> 415', async () => {
    const { backend } = await setup();
    const post = (body: string, contentType = 'application/json') =>
      fetch(`${backend.ready.url}/api/workspaces`, {
        method: 'POST',
        headers: { 'content-type': contentType, authorization: `Bearer ${backend.apiToken}` },
        body,
      });
    const malformed = await post('{"name": ');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as ErrorBody).error).toMatchObject({ code: 'invalid_argument', message: /JSON/ });
    const oversized = await post(JSON.stringify({ name: 'x'.repeat(1_100_000) }));
    expect(oversized.status).toBe(413);
    expect(((await oversized.json()) as ErrorBody).error.code).toBe('invalid_argument');
    const text = await post('name=w', 'text/plain');
    expect(text.status).toBe(415);
    expect(((await text.json()) as ErrorBody).error.code).toBe('unsupported_media_type');
    expect(await fetch(`${backend.ready.url}/healthz`).then((r) => r.json())).toEqual({ status: 'ok' });
  });

  test('the data dir holds the database and agentctl log', async () => {
    const { backend } = await setup();
    expect(await countRows(backend.dataDir, 'workspaces')).toBe(1);
    expect(existsSync(join(backend.dataDir, 'agentctl.log'))).toBe(true);
  });
});
