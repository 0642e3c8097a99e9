// The provider-automation routes in the real built backend (wired by main.ts): links and credentials
// over HTTP, and a token that appears in no response body and no log line, even when its write fails.
import { type ApiResponse, BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { onPostgres, openTestDatabase } from '@kandev/backend/testing';
import { githubForBackend } from '../../helpers/github-server';
import { startBackend } from '../../helpers/processes';

const TOKEN = 'ghp_process-level-secret-token-1234567890';

describe('provider automation in the backend process', () => {
  const cleanup = useCleanup();

  test('links, credentials, errors; the token is never echoed or logged', async () => {
    // Tokens are verified with GET /user at a local GitHub test server, which reports the login 'octo'.
    const { env: githubEnv } = await githubForBackend(cleanup, 'octo');
    const backend = await startBackend(cleanup, { LOG_LEVEL: 'trace', ...githubEnv });
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const bodies: string[] = [];
    const call = async (method: string, path: string, body?: unknown): Promise<ApiResponse> => {
      const response = await api.request(method, path, body);
      bodies.push(JSON.stringify(response.body));
      return response;
    };
    const workspace = await api.workspace('main');
    const repo = await api.repository(workspace, { remote_url: 'https://github.com/acme/api' });
    const task = await api.task(workspace, { title: 't', repository_ids: [repo.id] });

    const put = await call('PUT', `/api/workspaces/${workspace}/credentials/github`, {
      token: TOKEN,
      username: 'octo',
    });
    expect(put).toEqual({ status: 200, body: { provider: 'github', configured: true, username: 'octo' } });
    expect((await call('GET', `/api/workspaces/${workspace}/credentials`)).body).toEqual({
      credentials: [{ provider: 'github', configured: true, username: 'octo' }],
    });
    const linked = await call('POST', `/api/tasks/${task.id}/prs`, { repository_id: repo.id, number: 12 });
    expect(linked).toMatchObject({ status: 201, body: { task_id: task.id, repository_id: repo.id, number: 12 } });
    expect((await call('GET', `/api/tasks/${task.id}/prs`)).body).toEqual({ prs: [linked.body] });
    expect((await call('GET', `/api/tasks/${task.id}/mrs`)).body).toEqual({ mrs: [] });
    expect((await call('POST', `/api/tasks/${task.id}/prs`, { repository_id: repo.id, number: 1, x: 1 })).status).toBe(
      400,
    );
    expect((await call('POST', `/api/tasks/nope/prs`, { repository_id: repo.id, number: 1 })).status).toBe(404);
    expect((await call('PUT', `/api/workspaces/nope/credentials/github`, { token: TOKEN })).status).toBe(404);

    // A write that fails inside the driver, after the token was bound to the statement.
    const db = await openTestDatabase(backend.dataDir);
    try {
      if (onPostgres()) {
        await db.raw(
          `CREATE FUNCTION reject_credentials() RETURNS trigger AS $$ BEGIN RAISE 'no'; END $$ LANGUAGE plpgsql`,
        );
        await db.raw(
          'CREATE TRIGGER reject_credentials BEFORE UPDATE ON workspace_credentials FOR EACH ROW EXECUTE FUNCTION reject_credentials()',
        );
      } else {
        await db.raw(
          `CREATE TRIGGER reject_credentials BEFORE UPDATE ON workspace_credentials BEGIN SELECT RAISE(ABORT, 'no'); END`,
        );
      }
    } finally {
      await db.destroy();
    }
    const failed = await call('PUT', `/api/workspaces/${workspace}/credentials/github`, { token: `${TOKEN}-new` });
    expect(failed.status).toBe(500);
    expect(backend.logs()).toContain('request failed');

    for (const body of bodies) expect(body).not.toContain(TOKEN);
    expect(backend.logs()).not.toContain(TOKEN);
  });
});
