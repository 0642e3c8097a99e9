// REST for PR/MR links and workspace credentials, served in process by the backend's app factory on a
// fresh SQLite file: link rules, the error contract, and tokens that never come back out.
import { useCleanup } from '../../helpers/cleanup';
import { TEST_SECRETS } from '@kandev/backend/testing';
import {
  createProviderAutomationEnv,
  type ProviderAutomationEnv,
  serveProviderAutomation,
} from '../../helpers/provider-automation';
import { expectError, type Json } from '../../helpers/rest-backend';

const TOKEN = 'glpat-very-secret-token-9876543210';

describe('provider automation REST (in process)', () => {
  const cleanup = useCleanup();

  async function setup() {
    const env = await createProviderAutomationEnv(cleanup);
    const api = await serveProviderAutomation(cleanup, env);
    await env.uow.read.workspaces.insert({ id: 'w', name: 'w', createdAt: '2026-11-30T10:00:00.000Z' });
    const repo = async (source: Json) => (await env.repositories.create({ workspace_id: 'w', ...source })).id;
    const gh = await repo({ remote_url: 'https://github.com/acme/api' });
    const gl = await repo({ remote_url: 'https://gitlab.com/acme/group/svc' });
    const local = await repo({ local_path: '/srv/tool' });
    const unattached = await repo({ remote_url: 'https://github.com/acme/other' });
    const task = (await env.tasks.create({ workspace_id: 'w', title: 't', repository_ids: [gh, gl, local] })).task.id;
    return { env, api, gh, gl, local, unattached, task };
  }

  async function counts(env: ProviderAutomationEnv) {
    const count = async (table: string) => Number((await env.db(table).count<{ n: number }[]>({ n: '*' }))[0]?.n);
    return { prs: await count('task_prs'), mrs: await count('task_mrs'), creds: await count('workspace_credentials') };
  }

  test('POST /api/tasks/:id/prs links a PR of an attached GitHub repository; GET lists it', async () => {
    const { api, gh, task } = await setup();
    const created = await api.request<Json>('POST', `/api/tasks/${task}/prs`, { repository_id: gh, number: 42 });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      task_id: task,
      repository_id: gh,
      number: 42,
      state: 'open',
      head_sha: null,
      automation: {
        auto_fix_enabled: false,
        auto_merge_enabled: false,
        prompt_on_review_requested: false,
        prompt_on_merged: false,
        prompt_on_closed: false,
      },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await api.request('GET', `/api/tasks/${task}/prs`)).body).toEqual({ prs: [created.body] });
  });

  test('PR link rules: unknown task/repository 404, not attached 409, wrong provider 400, duplicate 409', async () => {
    const { env, api, gh, gl, local, unattached, task } = await setup();
    await api.create(`/api/tasks/${task}/prs`, { repository_id: gh, number: 1 });
    const before = await counts(env);
    const post = (path: string, body: unknown) => api.request('POST', path, body);
    expectError(await post(`/api/tasks/nope/prs`, { repository_id: gh, number: 2 }), 404, 'not_found', /task nope/);
    expectError(await post(`/api/tasks/${task}/prs`, { repository_id: 'nope', number: 2 }), 404, 'not_found');
    expectError(
      await post(`/api/tasks/${task}/prs`, { repository_id: unattached, number: 2 }),
      409,
      'failed_precondition',
      /is not attached to task/,
    );
    expectError(
      await post(`/api/tasks/${task}/prs`, { repository_id: gl, number: 2 }),
      400,
      'invalid_argument',
      /is a gitlab repository; a pull request needs a GitHub one/,
    );
    expectError(await post(`/api/tasks/${task}/prs`, { repository_id: local, number: 2 }), 400, 'invalid_argument');
    expectError(
      await post(`/api/tasks/${task}/prs`, { repository_id: gh, number: 1 }),
      409,
      'already_exists',
      /already linked/,
    );
    for (const body of [
      { repository_id: gh, number: 2, state: 'merged' },
      { repository_id: gh, number: 0 },
      { repository_id: gh, number: '2' },
      { repository_id: gh },
      { number: 2 },
    ]) {
      expectError(await post(`/api/tasks/${task}/prs`, body), 400, 'invalid_argument');
    }
    expectError(await api.request('GET', '/api/tasks/nope/prs'), 404, 'not_found');
    expect(await counts(env)).toEqual(before);
  });

  test('POST /api/tasks/:id/mrs links an MR of an attached GitLab repository, with the same rules', async () => {
    const { env, api, gh, gl, task } = await setup();
    const body = { repository_id: gl, project_path: 'acme/group/svc', iid: 7 };
    const created = await api.request<Json>('POST', `/api/tasks/${task}/mrs`, body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ task_id: task, repository_id: gl, project_path: 'acme/group/svc', iid: 7 });
    expect(created.body).toMatchObject({ state: 'opened', head_sha: null });
    expect((await api.request('GET', `/api/tasks/${task}/mrs`)).body).toEqual({ mrs: [created.body] });

    const before = await counts(env);
    const post = (payload: unknown) => api.request('POST', `/api/tasks/${task}/mrs`, payload);
    expectError(await post(body), 409, 'already_exists');
    expectError(await post({ ...body, repository_id: gh }), 400, 'invalid_argument', /merge request needs a GitLab/);
    expectError(await post({ ...body, project_path: 'no-namespace' }), 400, 'invalid_argument', /project_path/);
    expectError(await post({ ...body, iid: 8, number: 8 }), 400, 'invalid_argument', /number/);
    expectError(await api.request('POST', '/api/tasks/nope/mrs', { ...body, iid: 9 }), 404, 'not_found');
    expectError(await api.request('GET', '/api/tasks/nope/mrs'), 404, 'not_found');
    expect(await counts(env)).toEqual(before);
  });

  test('credentials: a GitLab base_url must be https on gitlab.com or KANDEV_GITLAB_HOSTS, http only if insecure', async () => {
    const env = await createProviderAutomationEnv(cleanup, { config: { gitlabHosts: ['git.corp.example'] } });
    const api = await serveProviderAutomation(cleanup, env);
    await env.uow.read.workspaces.insert({ id: 'w', name: 'w', createdAt: '2026-11-30T10:00:00.000Z' });
    const put = (base_url: string) =>
      api.request('PUT', '/api/workspaces/w/credentials/gitlab', { token: TOKEN, base_url });
    for (const [base_url, message] of [
      ['http://127.0.0.1:1/anything', /plain http is allowed only for hosts in KANDEV_GITLAB_INSECURE_HOSTS/],
      ['http://gitlab.com', /must be https/],
      ['https://evil.example', /evil.example is not gitlab.com or a host in KANDEV_GITLAB_HOSTS/],
      ['https://user:pw@gitlab.com', /must not contain credentials/],
    ] as const) {
      const refused = await put(base_url);
      expectError(refused, 400, 'invalid_argument', message);
      expect(JSON.stringify(refused.body)).not.toContain(TOKEN);
    }
    expect((await counts(env)).creds).toBe(0);
    expect((await put('https://gitlab.com')).body).toMatchObject({ base_url: 'https://gitlab.com' });
    expect((await put('https://git.corp.example/gitlab')).body).toMatchObject({
      base_url: 'https://git.corp.example/gitlab',
    });
    expect((await counts(env)).creds).toBe(1);
  });

  test('credentials: stored, replaced, listed and deleted; the token never appears in a response', async () => {
    const { env, api } = await setup();
    const bodies: string[] = [];
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await api.request<Json>(method, path, body);
      bodies.push(JSON.stringify(response.body));
      return response;
    };
    const put = await call('PUT', '/api/workspaces/w/credentials/gitlab', { token: TOKEN, username: 'ci-bot' });
    expect(put).toEqual({ status: 200, body: { provider: 'gitlab', configured: true, username: 'ci-bot' } });
    const stored = await env.db('workspace_credentials').where({ workspace_id: 'w', provider: 'gitlab' }).first();
    // Sealed at rest; it opens with the backend's key to what was sent.
    expect(stored).toMatchObject({ token: expect.stringMatching(/^enc:v1:/), username: 'ci-bot' });
    expect(TEST_SECRETS.open(String(stored?.token))).toBe(TOKEN);

    await call('PUT', '/api/workspaces/w/credentials/github', { token: `${TOKEN}-gh` });
    const replaced = await call('PUT', '/api/workspaces/w/credentials/gitlab', { token: `${TOKEN}-2` });
    expect(replaced.body).toEqual({ provider: 'gitlab', configured: true, username: null });
    expect((await call('GET', '/api/workspaces/w/credentials')).body).toEqual({
      credentials: [
        { provider: 'github', configured: true, username: null },
        { provider: 'gitlab', configured: true, username: null },
      ],
    });

    const before = await counts(env);
    expectError(
      await call('PUT', '/api/workspaces/w/credentials/bitbucket', { token: TOKEN }),
      400,
      'invalid_argument',
    );
    expectError(
      await call('PUT', '/api/workspaces/w/credentials/github', { token: TOKEN, scope: 'x' }),
      400,
      'invalid_argument',
      /scope/,
    );
    expectError(await call('PUT', '/api/workspaces/w/credentials/github', { token: '   ' }), 400, 'invalid_argument');
    expectError(
      await call('PUT', '/api/workspaces/w/credentials/github', { token: `${TOKEN}${'x'.repeat(5000)}` }),
      400,
      'invalid_argument',
    );
    expectError(await call('PUT', '/api/workspaces/nope/credentials/github', { token: TOKEN }), 404, 'not_found');
    expectError(await call('GET', '/api/workspaces/nope/credentials'), 404, 'not_found');
    expect(await counts(env)).toEqual(before);

    expect((await call('DELETE', '/api/workspaces/w/credentials/github')).status).toBe(204);
    expectError(await call('DELETE', '/api/workspaces/w/credentials/github'), 404, 'not_found');
    expect((await call('GET', '/api/workspaces/w/credentials')).body).toEqual({
      credentials: [{ provider: 'gitlab', configured: true, username: null }],
    });
    for (const body of bodies) expect(body).not.toContain(TOKEN);
  });
});
