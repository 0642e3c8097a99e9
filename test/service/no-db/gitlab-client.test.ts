// The GitLab REST v4 client against the local GitLab test server: parsed responses, typed errors per
// status (401, 403, 404, 429 + Retry-After, 5xx), and no token in any error.
import { GitlabClient, GitlabError, parseRetryAfter } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { GITLAB_TOKEN, startGitlabServer } from '../../helpers/gitlab-server';

describe('GitLab client', () => {
  const cleanup = useCleanup();

  async function setup(prefix = '') {
    const gitlab = await startGitlabServer(cleanup, { prefix });
    gitlab.setMr('acme/svc', 3, { state: 'opened', reviewers: ['alice', 'reviewer-bot'], sha: 'b'.repeat(40) });
    return { gitlab, client: new GitlabClient({ baseUrl: `${gitlab.baseUrl}/`, token: GITLAB_TOKEN }) };
  }

  async function failure(promise: Promise<unknown>): Promise<GitlabError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GitlabError);
    expect(JSON.stringify(error) + String((error as Error).message)).not.toContain(GITLAB_TOKEN);
    return error as GitlabError;
  }

  test('reads an MR (state, head, reviewers) and the user; the project path is URL-encoded', async () => {
    const { gitlab, client } = await setup('/self-managed');
    expect(await client.mergeRequest('acme/svc', 3)).toEqual({
      state: 'opened',
      headSha: 'b'.repeat(40),
      reviewers: ['alice', 'reviewer-bot'],
    });
    expect(await client.currentUser()).toMatchObject({ username: 'reviewer-bot' });
    expect(gitlab.requests.map((r) => r.path)).toEqual([
      '/self-managed/api/v4/projects/acme%2Fsvc/merge_requests/3',
      '/self-managed/api/v4/user',
    ]);
  });

  test.each([
    [401, 'unauthorized', 'unauthenticated'],
    [403, 'forbidden', 'failed_precondition'],
    [500, 'server', 'unavailable'],
    [503, 'server', 'unavailable'],
  ])('%i -> %s (%s)', async (status, kind, code) => {
    const { gitlab, client } = await setup();
    gitlab.script({ status });
    const error = await failure(client.mergeRequest('acme/svc', 3));
    expect(error).toMatchObject({
      failure: kind,
      code,
      status,
      message: `reading merge request !3 failed: GitLab answered ${status}`,
    });
  });

  test('404 for an unknown MR and for unknown routes', async () => {
    const { client, gitlab } = await setup();
    expect(await failure(client.mergeRequest('acme/svc', 99))).toMatchObject({ failure: 'not_found', status: 404 });
    expect((await fetch(`${gitlab.url}/api/v4/projects`)).status).toBe(404);
    expect((await fetch(`${gitlab.url}/nowhere`)).status).toBe(404);
  });

  test('429 carries Retry-After (seconds or an HTTP date)', async () => {
    const { gitlab, client } = await setup();
    gitlab.script({ status: 429, headers: { 'retry-after': '30' } });
    expect(await failure(client.mergeRequest('acme/svc', 3))).toMatchObject({
      failure: 'rate_limited',
      retryAfterMs: 30_000,
    });
    expect(parseRetryAfter('Wed, 01 Dec 2026 08:00:10 GMT', Date.parse('2026-12-01T08:00:00Z'))).toBe(10_000);
    expect(parseRetryAfter('soon', 0)).toBeNull();
    expect(parseRetryAfter(null, 0)).toBeNull();
  });

  test('a response of the wrong shape and an unreachable host are typed errors too', async () => {
    const { gitlab, client } = await setup();
    gitlab.script({ status: 200, body: { iid: 3, state: 'weird' } });
    expect(await failure(client.mergeRequest('acme/svc', 3))).toMatchObject({ failure: 'bad_response' });
    const unreachable = new GitlabClient({ baseUrl: 'http://127.0.0.1:1', token: GITLAB_TOKEN });
    expect(await failure(unreachable.currentUser())).toMatchObject({ failure: 'network', code: 'unavailable' });
  });
});
