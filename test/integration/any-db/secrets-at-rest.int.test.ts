// Secrets at rest in the real built backend: a GitLab token and an agent-profile env value stored
// through REST never reach the database files in plain text (and REST keeps hiding them); the data
// dir's generated secret.key is 0600; a start with a key that did not seal the rows fails with a
// message naming where the key came from, not a stack, and changes nothing.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { databaseHolds } from '@kandev/backend/testing';
import { githubForBackend } from '../../helpers/github-server';
import { GITLAB_TEST_HOST, GITLAB_TOKEN, startGitlabServer } from '../../helpers/gitlab-server';
import { startBackend, stopProcess } from '../../helpers/processes';

const ENV_VALUE = 'sk-live-agent-api-key-0123456789abcdef';

describe('secrets at rest (backend process)', () => {
  const cleanup = useCleanup();

  test('REST-stored GitLab token and env value: not in the database files, not in REST, not in logs', async () => {
    const gitlab = await startGitlabServer(cleanup, { prefix: '/gitlab' });
    const env = { KANDEV_GITLAB_INSECURE_HOSTS: GITLAB_TEST_HOST, LOG_LEVEL: 'trace' };
    const backend = await startBackend(cleanup, env);
    const { dataDir } = backend;
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const workspace = await api.workspace();
    const put = await api.request('PUT', `/api/workspaces/${workspace}/credentials/gitlab`, {
      token: GITLAB_TOKEN,
      base_url: gitlab.baseUrl,
    });
    expect(put).toMatchObject({ status: 200, body: { provider: 'gitlab', configured: true } });
    const profile = await api.request('POST', '/api/agent-profiles', {
      name: 'with-key',
      command: 'agent',
      env: { AGENT_API_KEY: ENV_VALUE },
      supports_mcp: true,
    });
    expect(profile).toMatchObject({ status: 201, body: { env_keys: ['AGENT_API_KEY'] } });
    const bodies = [
      put.body,
      profile.body,
      (await api.request('GET', `/api/workspaces/${workspace}/credentials`)).body,
      (await api.request('GET', '/api/agent-profiles')).body,
    ].map((body) => JSON.stringify(body));
    for (const body of bodies) {
      expect(body).not.toContain(GITLAB_TOKEN);
      expect(body).not.toContain(ENV_VALUE);
    }
    expect(statSync(join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);

    expect(await stopProcess(backend.child, { graceMs: 10_000 })).toEqual({ code: 0, signal: null });
    expect(await databaseHolds(dataDir, GITLAB_TOKEN)).toBe(false);
    expect(await databaseHolds(dataDir, ENV_VALUE)).toBe(false);
    expect(await databaseHolds(dataDir, 'AGENT_API_KEY')).toBe(true); // names stay readable; the file was read
    for (const secret of [GITLAB_TOKEN, ENV_VALUE]) expect(backend.logs()).not.toContain(secret);
  });

  test('a wrong key fails the start with where it came from, no stack; the right key still opens', async () => {
    const { env: githubEnv } = await githubForBackend(cleanup);
    const backend = await startBackend(cleanup, githubEnv);
    const { dataDir } = backend;
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const workspace = await api.workspace();
    const put = await api.request('PUT', `/api/workspaces/${workspace}/credentials/github`, { token: GITLAB_TOKEN });
    expect(put.status).toBe(200);
    expect(await stopProcess(backend.child, { graceMs: 10_000 })).toEqual({ code: 0, signal: null });

    const wrongKey = 'cd'.repeat(32);
    const failed = await startBackend(cleanup, { KANDEV_DATA_DIR: dataDir, KANDEV_SECRET_KEY: wrongKey }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(failed).toContain('exited before ready (code 2');
    expect(failed).toContain('stored secrets cannot be decrypted with the secret key from KANDEV_SECRET_KEY');
    expect(failed).not.toMatch(/\n\s+at /); // no stack trace
    expect(failed).not.toContain(wrongKey);

    const again = await startBackend(cleanup, { KANDEV_DATA_DIR: dataDir });
    expect(await stopProcess(again.child, { graceMs: 10_000 })).toEqual({ code: 0, signal: null });
  });
});
