// The GitLab MR lifecycle in process: poller + evaluator + the durable prompt queue on a fresh SQLite
// file, against a local GitLab v4 test server (requests counted there). A manual clock drives backoff;
// pollOnce() replaces the timer.
import { AppError } from '@kandev/protocol';
import { createApp, createMrLifecycleRoutes, listen } from '@kandev/backend/testing';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { GITLAB_TOKEN } from '../../helpers/gitlab-server';
import { parseMetrics, sampleValue } from '../../helpers/metrics';
import { createMrLifecycleEnv, IID, type MrLifecycleEnv, POLICY, PROJECT } from '../../helpers/mr-lifecycle';
import { NOW } from '../../helpers/provider-automation';

const ME = 'reviewer-bot';

describe('GitLab MR lifecycle (in process)', () => {
  const cleanup = useCleanup();

  /** One poll after changing the MR at the server; resolves after its evaluation committed. */
  async function pollWith(t: MrLifecycleEnv, mr: Parameters<MrLifecycleEnv['gitlab']['setMr']>[2]) {
    t.gitlab.setMr(PROJECT, IID, mr);
    await t.poller.pollOnce();
  }

  test('saving the token verifies it once with GET /user and persists the username', async () => {
    const t = await createMrLifecycleEnv(cleanup);
    expect(t.gitlab.requests.filter((r) => r.path === '/api/v4/user')).toHaveLength(1);
    expect(await t.env.uow.read.workspaceCredentials.find('w', 'gitlab')).toMatchObject({ username: ME });
    // A rejected token is refused by name of the problem, never echoed, and nothing is stored.
    const rejected = await t.credentials
      .put('w', 'gitlab', { token: 'glpat-wrong', base_url: t.gitlab.baseUrl })
      .catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(AppError);
    expect(rejected).toMatchObject({ code: 'invalid_argument', message: 'GitLab rejected the token (401)' });
    expect(JSON.stringify(rejected)).not.toContain('glpat-wrong');
    expect(await t.env.uow.read.workspaceCredentials.findSecret('w', 'gitlab')).toMatchObject({ token: GITLAB_TOKEN });
  });

  test('a base_url outside the host allow-lists: 400 before any call, nothing stored', async () => {
    const t = await createMrLifecycleEnv(cleanup, { credential: false, insecureHosts: [] });
    for (const base_url of [t.gitlab.baseUrl, `${t.gitlab.baseUrl}/anything`, 'http://127.0.0.1:1/anything']) {
      const refused = await t.credentials
        .put('w', 'gitlab', { token: GITLAB_TOKEN, base_url })
        .catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('INSECURE_HOSTS') });
    }
    expect(t.gitlab.requests).toEqual([]);
    expect(await t.env.uow.read.workspaceCredentials.find('w', 'gitlab')).toBeUndefined();
  });

  test('a stored credential the allow-lists no longer admit is not used: no call, a poll error', async () => {
    const t = await createMrLifecycleEnv(cleanup, { credential: false, insecureHosts: [] });
    await t.env.uow.read.workspaceCredentials.upsert({
      workspaceId: 'w',
      provider: 'gitlab',
      token: GITLAB_TOKEN,
      username: ME,
      baseUrl: t.gitlab.baseUrl, // stored while 127.0.0.1 was an insecure host
      createdAt: NOW,
      updatedAt: NOW,
    });
    await t.poller.pollOnce();
    expect(t.gitlab.requests).toEqual([]);
    expect((await t.lifecycle()).poll_error).toContain('the stored GitLab credential is not used');
  });

  test('an observed update with a valid reviewer list makes zero further GitLab calls during evaluation', async () => {
    const t = await createMrLifecycleEnv(cleanup);
    const before = t.gitlab.requests.length;
    await pollWith(t, { reviewers: [] });
    await pollWith(t, { reviewers: [ME] });
    await pollWith(t, { reviewers: [ME] });
    // Exactly the poller's three reads: the evaluations used the reviewers the reads carried.
    expect(t.gitlab.requests.length - before).toBe(3);
    expect(t.gitlab.mrRequests(PROJECT, IID)).toBe(3);
    expect((await t.lifecycle()).last_evaluation).toMatchObject({ reviewers_source: 'observation' });
    expect(await t.queued()).toHaveLength(1);
  });

  test('an event without a valid observation reads the MR exactly once, with the workspace client', async () => {
    const t = await createMrLifecycleEnv(cleanup);
    await pollWith(t, { reviewers: [] }); // baseline: not requested
    t.gitlab.setMr(PROJECT, IID, { reviewers: [ME] });
    const before = t.gitlab.requests.length;
    const target = await t.env.uow.read.mrLifecycle.findTarget(t.linkId);
    await t.evaluator.handle({ ...target!, state: 'opened', headSha: null, reviewers: { valid: false } });
    expect(t.gitlab.requests.length - before).toBe(1);
    expect(t.gitlab.requests.at(-1)).toMatchObject({ authorized: true });
    expect((await t.lifecycle()).last_evaluation).toMatchObject({
      reviewers_source: 'fallback',
      prompted: ['review_requested'],
    });
    expect(await t.queued()).toEqual([expect.stringContaining('your review was requested')]);
  });

  test('review requested: false -> true once, repeats nothing, true -> false -> true again', async () => {
    const t = await createMrLifecycleEnv(cleanup);
    await pollWith(t, { reviewers: ['someone'] });
    expect(await t.queued()).toEqual([]);
    await pollWith(t, { reviewers: ['someone', ME] });
    expect(await t.queued()).toHaveLength(1);
    for (let i = 0; i < 3; i += 1) await pollWith(t, { reviewers: [ME] });
    expect(await t.queued()).toHaveLength(1);
    await pollWith(t, { reviewers: [] });
    await pollWith(t, { reviewers: [ME] });
    const queued = await t.queued();
    expect(queued).toHaveLength(2);
    expect(queued[1]).toBe(
      `GitLab: your review was requested on merge request ${PROJECT}!${IID} (as ${ME}). Review it.`,
    );
    // Each prompt went into the task's queue with its own coalescing key and a conversation entry.
    const rows = await t.env.db('prompt_queue').where({ task_id: t.taskId }).orderBy('seq').select('coalescing_key');
    expect(rows.map((r: { coalescing_key: string }) => r.coalescing_key)).toEqual([
      `gitlab-mr:${t.linkId}:review_requested:1`,
      `gitlab-mr:${t.linkId}:review_requested:2`,
    ]);
    const messages = await t.env.db('messages').where({ task_id: t.taskId }).count<{ n: number }[]>({ n: '*' });
    expect(Number(messages[0]!.n)).toBe(2);
  });

  test('the first observation of an already-requested MR only sets the baseline', async () => {
    const t = await createMrLifecycleEnv(cleanup);
    await pollWith(t, { reviewers: [ME] });
    await pollWith(t, { reviewers: [ME] });
    expect(await t.queued()).toEqual([]);
    expect(await t.lifecycle()).toMatchObject({ checkpoint: { state: 'opened', review_requested: true, seq: 0 } });
  });

  test('merged prompts once; closed prompts once; a locked MR prompts nothing', async () => {
    const merged = await createMrLifecycleEnv(cleanup);
    await pollWith(merged, { state: 'opened' });
    await pollWith(merged, { state: 'merged', sha: 'a'.repeat(40) });
    await pollWith(merged, { state: 'merged' });
    expect(await merged.queued()).toEqual([
      `GitLab: merge request ${PROJECT}!${IID} was merged. Wrap up the work that depended on it.`,
    ]);
    // The link itself moved: state and head from the read.
    expect(await merged.lifecycle()).toMatchObject({ state: 'merged', head_sha: 'a'.repeat(40), poll_error: null });

    const closed = await createMrLifecycleEnv(cleanup);
    await pollWith(closed, { state: 'opened' });
    await pollWith(closed, { state: 'closed' });
    await pollWith(closed, { state: 'closed' });
    expect(await closed.queued()).toEqual([expect.stringContaining('was closed without merging')]);

    const locked = await createMrLifecycleEnv(cleanup);
    await pollWith(locked, { state: 'opened' });
    await pollWith(locked, { state: 'locked', reviewers: [ME] });
    await pollWith(locked, { state: 'locked', reviewers: [ME] });
    expect(await locked.queued()).toEqual([]);
  });

  test('a repeated transition never queues a duplicate: the coalescing key is taken', async () => {
    const t = await createMrLifecycleEnv(cleanup);
    await pollWith(t, { state: 'opened' });
    await pollWith(t, { state: 'merged' });
    // The checkpoint is rolled back (as if its write was lost): the same transition is seen again.
    await t.env
      .db('task_mrs')
      .where({ id: t.linkId })
      .update({
        lifecycle_checkpoint: JSON.stringify({ state: 'opened', review_requested: false, seq: 0 }),
      });
    await pollWith(t, { state: 'merged' });
    expect(await t.queued()).toHaveLength(1);
    expect((await t.lifecycle()).last_evaluation).toMatchObject({ result: 'unchanged', prompted: [] });
  });

  test('no persisted username: review-requested evaluation is skipped and the link says why', async () => {
    const t = await createMrLifecycleEnv(cleanup);
    await t.env.db('workspace_credentials').where({ workspace_id: 'w' }).update({ username: null });
    await pollWith(t, { reviewers: [] });
    await pollWith(t, { reviewers: [ME] });
    expect(await t.queued()).toEqual([]);
    expect((await t.lifecycle()).last_evaluation).toMatchObject({ review_skipped: 'no_authenticated_username' });
  });

  test('token revoked (401): the link shows the error, nothing is prompted, the poller backs off', async () => {
    const t = await createMrLifecycleEnv(cleanup);
    await pollWith(t, { state: 'opened' });
    t.gitlab.revokeToken();
    await pollWith(t, { state: 'merged' });
    const view = await t.lifecycle();
    expect(view.poll_error).toBe(`reading merge request !${IID} failed: GitLab answered 401`);
    expect(view.state).toBe('opened');
    expect(await t.queued()).toEqual([]);
    const reads = t.gitlab.mrRequests(PROJECT, IID);
    await t.poller.pollOnce(); // still within the backoff: no request
    t.advance(POLICY.backoffBaseMs - 1);
    await t.poller.pollOnce();
    expect(t.gitlab.mrRequests(PROJECT, IID)).toBe(reads);
    t.advance(1);
    await t.poller.pollOnce(); // due again; fails again, and the next wait doubles
    expect(t.gitlab.mrRequests(PROJECT, IID)).toBe(reads + 1);
    t.advance(2 * POLICY.backoffBaseMs - 1);
    await t.poller.pollOnce();
    expect(t.gitlab.mrRequests(PROJECT, IID)).toBe(reads + 1);
    expect(await t.queued()).toEqual([]);
    // The backend's own registry counted the three polls that ran (a link in backoff is not polled).
    const samples = parseMetrics(await t.env.backend.metrics.registry.metrics());
    expect(sampleValue(samples, 'kandev_backend_gitlab_polls_total')).toBe(3);
    expect(sampleValue(samples, 'kandev_backend_gitlab_poll_errors_total', { code: 'unauthenticated' })).toBe(2);
  });

  test('429 with Retry-After: the poller waits that long, then reads again and recovers', async () => {
    const t = await createMrLifecycleEnv(cleanup);
    await pollWith(t, { state: 'opened' });
    t.gitlab.script({ status: 429, headers: { 'retry-after': '120' }, body: { message: '429 Too Many Requests' } });
    await pollWith(t, { state: 'merged' });
    expect((await t.lifecycle()).poll_error).toContain('GitLab answered 429');
    const reads = t.gitlab.mrRequests(PROJECT, IID);
    t.advance(119_000); // past the exponential base (10 s), short of Retry-After
    await t.poller.pollOnce();
    expect(t.gitlab.mrRequests(PROJECT, IID)).toBe(reads);
    t.advance(1_000);
    await t.poller.pollOnce();
    expect(t.gitlab.mrRequests(PROJECT, IID)).toBe(reads + 1);
    expect((await t.lifecycle()).poll_error).toBeNull();
    expect(await t.queued()).toEqual([expect.stringContaining('was merged')]);
  });

  test('5xx: shown on the link and backed off; the token appears in no error', async () => {
    const t = await createMrLifecycleEnv(cleanup);
    t.gitlab.script({ status: 502 });
    await t.poller.pollOnce();
    const view = await t.lifecycle();
    expect(view.poll_error).toBe(`reading merge request !${IID} failed: GitLab answered 502`);
    expect(JSON.stringify(view)).not.toContain(GITLAB_TOKEN);
    await t.poller.pollOnce();
    expect(t.gitlab.mrRequests(PROJECT, IID)).toBe(1);
  });

  test('a self-managed GitLab base URL (under a path) works the same way', async () => {
    const t = await createMrLifecycleEnv(cleanup, { prefix: '/gitlab' });
    expect(t.gitlab.requests.map((r) => r.path)).toEqual(['/gitlab/api/v4/user']);
    await pollWith(t, { state: 'opened' });
    await pollWith(t, { state: 'merged' });
    expect(await t.queued()).toEqual([expect.stringContaining('was merged')]);
    expect(t.gitlab.mrRequests(PROJECT, IID)).toBe(2);
  });

  test('REST: the lifecycle view, 404 for another task; evaluate without an observation never fakes a baseline', async () => {
    const t = await createMrLifecycleEnv(cleanup, { switches: { prompt_on_merged: true } });
    const router = createMrLifecycleRoutes({ uow: t.env.uow, evaluator: t.evaluator });
    const server = await listen(createApp(t.env.logger, [router]), '127.0.0.1', 0);
    cleanup.defer(() => server.close());
    const api = new BackendApi(`http://127.0.0.1:${server.port}`);
    const path = `/api/tasks/${t.taskId}/mrs/${t.linkId}/lifecycle`;
    expect((await api.request('GET', path)).body).toEqual({
      state: 'opened',
      head_sha: null,
      polled_at: null,
      poll_error: null,
      checkpoint: null,
      last_evaluation: null,
    });
    expect((await api.request('GET', `/api/tasks/other/mrs/${t.linkId}/lifecycle`)).status).toBe(404);
    // No poll yet and no reviewers needed: nothing observed, so no baseline and no GitLab call.
    const before = t.gitlab.requests.length;
    const evaluated = await api.request('POST', `${path}/evaluate`, {});
    expect(evaluated.status).toBe(200);
    expect(evaluated.body).toMatchObject({
      checkpoint: null,
      last_evaluation: { result: 'unchanged', error: 'nothing observed yet: the first poll sets the baseline' },
    });
    expect(t.gitlab.requests.length).toBe(before);
    // After a poll's baseline, an evaluation of the stored state is idempotent.
    await pollWith(t, { state: 'merged' });
    expect((await api.request('POST', `${path}/evaluate`, {})).body).toMatchObject({
      checkpoint: { state: 'merged', seq: 0 },
      last_evaluation: { result: 'unchanged' },
    });
    expect(await t.queued()).toEqual([]);
  });

  test('only links whose task has a lifecycle prompt switch on are polled', async () => {
    const t = await createMrLifecycleEnv(cleanup, { switches: { auto_fix_enabled: true } });
    await t.poller.pollOnce();
    expect(t.gitlab.mrRequests(PROJECT, IID)).toBe(0);
  });
});
