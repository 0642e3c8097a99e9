// The GitHub PR lifecycle in process: poller + evaluator + the durable prompt queue on a fresh SQLite
// file, against a local GitHub v3 test server (requests, ETags and the rate limit counted there). A
// manual clock drives backoff; pollOnce() replaces the timer, and each poll resolves only after its
// evaluation committed, so "nothing more" is asserted after a later observed poll.
import { AppError } from '@kandev/protocol';
import { useCleanup } from '../../helpers/cleanup';
import { parseMetrics, sampleValue } from '../../helpers/metrics';
import { GITHUB_TEST_LOGIN as ME, GITHUB_TOKEN } from '../../helpers/github-server';
import { createPrLifecycleEnv, NUMBER, type PrLifecycleEnv, POLICY, REPO } from '../../helpers/pr-lifecycle';
import { NOW } from '../../helpers/provider-automation';
import { serveProviderAutomation } from '../../helpers/provider-automation';

const PULL = `/repos/${REPO}/pulls/${NUMBER}`;
const SHA2 = '2'.repeat(40);
const SHA3 = '3'.repeat(40);

describe('GitHub PR lifecycle (in process)', () => {
  const cleanup = useCleanup();

  async function pollWith(t: PrLifecycleEnv, pull: Parameters<PrLifecycleEnv['github']['setPull']>[2]) {
    t.github.setPull(REPO, NUMBER, pull);
    const before = t.github.count(PULL);
    await t.poller.pollOnce();
    // The barrier: this poll really read the PR (its evaluation committed before pollOnce resolved).
    expect(t.github.count(PULL)).toBeGreaterThan(before);
  }

  test('saving the token verifies it once with GET /user and stores the login; a bad token stores nothing', async () => {
    const t = await createPrLifecycleEnv(cleanup);
    expect(t.github.count('/user')).toBe(1);
    expect(await t.env.uow.read.workspaceCredentials.find('w', 'github')).toMatchObject({ username: ME });
    const fresh = await createPrLifecycleEnv(cleanup, { credential: false });
    const rejected = await fresh.env.credentials.put('w', 'github', { token: 'ghp_wrong' }).catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(AppError);
    expect(rejected).toMatchObject({ code: 'invalid_argument', message: 'GitHub rejected the token (401)' });
    expect(JSON.stringify(rejected)).not.toContain('ghp_wrong');
    // The API root is the operator's: a credential cannot send its token elsewhere.
    const redirected = await fresh.env.credentials
      .put('w', 'github', { token: GITHUB_TOKEN, base_url: 'http://127.0.0.1:1' })
      .catch((e: unknown) => e);
    expect(redirected).toMatchObject({
      code: 'invalid_argument',
      message: expect.stringContaining('KANDEV_GITHUB_API_URL'),
    });
    expect(await fresh.env.uow.read.workspaceCredentials.find('w', 'github')).toBeUndefined();
    expect(fresh.github.count('/user')).toBe(1); // the rejected token's check only
  });

  test('review requested for the stored login: one prompt; repeats none; removed and requested again: another', async () => {
    const t = await createPrLifecycleEnv(cleanup);
    await pollWith(t, { requested_reviewers: ['someone'] });
    await pollWith(t, { requested_reviewers: ['someone', ME] });
    for (let i = 0; i < 3; i += 1) await pollWith(t, { requested_reviewers: [ME.toUpperCase()] });
    expect(await t.queued()).toEqual([
      `GitHub: your review was requested on pull request ${REPO}#${NUMBER} (as ${ME}). Review it.`,
    ]);
    await pollWith(t, { requested_reviewers: [] });
    await pollWith(t, { requested_reviewers: [ME] });
    expect(await t.queued()).toHaveLength(2);
    const rows = await t.env.db('prompt_queue').where({ task_id: t.taskId }).orderBy('seq').select('coalescing_key');
    expect(rows.map((r: { coalescing_key: string }) => r.coalescing_key)).toEqual([
      `github-pr:${t.linkId}:review_requested:1`,
      `github-pr:${t.linkId}:review_requested:2`,
    ]);
  });

  test('merged prompts once; closed prompts once; the link moves with the read', async () => {
    const merged = await createPrLifecycleEnv(cleanup);
    await pollWith(merged, {});
    await pollWith(merged, { state: 'closed', merged: true, sha: SHA2 });
    await pollWith(merged, { state: 'closed', merged: true, sha: SHA2 });
    expect(await merged.queued()).toEqual([
      `GitHub: pull request ${REPO}#${NUMBER} was merged. Wrap up the work that depended on it.`,
    ]);
    expect(await merged.lifecycle()).toMatchObject({ state: 'merged', head_sha: SHA2, poll_error: null });
    const events = await merged.env.uow.read.events.after(0, { taskId: merged.taskId }, 1000);
    const lifecycle = events.filter((e) => e.type === 'pr.lifecycle');
    expect(lifecycle.map((e) => e.data.prompted)).toEqual([['merged']]);
    expect(lifecycle[0]?.data).toMatchObject({ pr_link_id: merged.linkId, repository: REPO, number: NUMBER });

    const closed = await createPrLifecycleEnv(cleanup);
    await pollWith(closed, {});
    await pollWith(closed, { state: 'closed' });
    await pollWith(closed, { state: 'closed' });
    expect(await closed.queued()).toEqual([expect.stringContaining('was closed without merging')]);
  });

  test('ETag: an unchanged PR is answered 304, keeps the observation and spends no rate limit', async () => {
    const t = await createPrLifecycleEnv(cleanup, {
      switches: { prompt_on_merged: true, auto_fix_enabled: true },
    });
    t.github.setChecks('1'.repeat(40), [{ name: 'ci', status: 'completed', conclusion: 'success' }]);
    await pollWith(t, {});
    const remaining = t.github.remaining;
    await t.poller.pollOnce();
    await t.poller.pollOnce();
    // Every read of the second and third polls (PR, reviews, check runs) was conditional and a 304.
    expect(t.github.requests.slice(-6).map((r) => [r.conditional, r.status])).toEqual(
      Array.from({ length: 6 }, () => [true, 304]),
    );
    expect(t.github.remaining).toBe(remaining);
    const samples = parseMetrics(await t.env.backend.metrics.registry.metrics());
    expect(sampleValue(samples, 'kandev_backend_github_polls_total', { result: 'not_modified' })).toBe(2);
    expect(sampleValue(samples, 'kandev_backend_github_polls_total', { result: 'read' })).toBe(1);
    expect(await t.lifecycle()).toMatchObject({ state: 'open', head_sha: '1'.repeat(40), poll_error: null });
    // A change is a 200 again, and is seen.
    await pollWith(t, { state: 'closed', merged: true });
    expect(t.github.requests.find((r) => r.path === PULL && r.status === 200 && r.conditional)).toBeDefined();
    expect(await t.queued()).toEqual([expect.stringContaining('was merged')]);
  });

  test('rate limit spent (403, remaining 0): the poller waits until x-ratelimit-reset, then recovers', async () => {
    const t = await createPrLifecycleEnv(cleanup);
    await pollWith(t, {});
    t.github.remaining = 0;
    t.github.resetAt = Date.parse(NOW) / 1000 + 300; // five minutes past the manual clock
    t.github.setPull(REPO, NUMBER, { state: 'closed', merged: true });
    await t.poller.pollOnce();
    expect((await t.lifecycle()).poll_error).toBe(`reading pull request #${NUMBER} failed: GitHub rate limit (403)`);
    const samples = parseMetrics(await t.env.backend.metrics.registry.metrics());
    expect(sampleValue(samples, 'kandev_backend_github_poll_errors_total', { code: 'unavailable' })).toBe(1);
    const reads = t.github.count(PULL);
    t.advance(299_000); // past the exponential base (10 s), short of the reset
    await t.poller.pollOnce();
    expect(t.github.count(PULL)).toBe(reads);
    t.github.remaining = 5000;
    t.advance(1_000);
    await t.poller.pollOnce();
    expect(t.github.count(PULL)).toBe(reads + 1);
    expect((await t.lifecycle()).poll_error).toBeNull();
    expect(await t.queued()).toEqual([expect.stringContaining('was merged')]);
  });

  test('429 with Retry-After: waited out, by the manual clock', async () => {
    const t = await createPrLifecycleEnv(cleanup);
    await pollWith(t, {});
    t.github.script({ status: 429, headers: { 'retry-after': '120' }, body: { message: 'secondary rate limit' } });
    await t.poller.pollOnce();
    expect((await t.lifecycle()).poll_error).toContain('GitHub rate limit (429)');
    const reads = t.github.count(PULL);
    t.advance(119_000);
    await t.poller.pollOnce();
    expect(t.github.count(PULL)).toBe(reads);
    t.advance(POLICY.intervalMs);
    await t.poller.pollOnce();
    expect(t.github.count(PULL)).toBe(reads + 1);
  });

  test('auto_fix: a failed check or a changes-requested review queues one fix prompt per head commit', async () => {
    const t = await createPrLifecycleEnv(cleanup, { switches: { auto_fix_enabled: true } });
    const SHA1 = '1'.repeat(40);
    t.github.setChecks(SHA1, [
      { name: 'lint', status: 'completed', conclusion: 'success' },
      { name: 'test', status: 'completed', conclusion: 'failure' },
    ]);
    await pollWith(t, {});
    await pollWith(t, {});
    t.github.setReviews(REPO, NUMBER, [{ login: 'alice', state: 'CHANGES_REQUESTED', commit_id: SHA1 }]);
    await pollWith(t, {}); // same head: still one
    expect(await t.queued()).toEqual([
      `GitHub: pull request ${REPO}#${NUMBER} needs a fix at ${SHA1.slice(0, 12)} (check runs failed: test). Fix it and push.`,
    ]);
    // A new commit whose checks pass and whose review is stale: nothing to fix.
    t.github.setChecks(SHA2, [{ name: 'test', status: 'completed', conclusion: 'success' }]);
    await pollWith(t, { sha: SHA2 });
    expect(await t.queued()).toHaveLength(1);
    // Another commit with changes requested on it: one more prompt, once.
    t.github.setReviews(REPO, NUMBER, [{ login: 'alice', state: 'CHANGES_REQUESTED', commit_id: SHA3 }]);
    await pollWith(t, { sha: SHA3 });
    await pollWith(t, { sha: SHA3 });
    const queued = await t.queued();
    expect(queued).toHaveLength(2);
    expect(queued[1]).toContain('changes requested by alice');
    const keys = await t.env.db('prompt_queue').where({ task_id: t.taskId }).orderBy('seq').pluck('coalescing_key');
    expect(keys).toEqual([`github-pr:${t.linkId}:auto_fix:${SHA1}`, `github-pr:${t.linkId}:auto_fix:${SHA3}`]);
  });

  test('auto_merge: merged once checks pass and GitHub says mergeable; shown on the link', async () => {
    const t = await createPrLifecycleEnv(cleanup, { switches: { auto_merge_enabled: true, prompt_on_merged: true } });
    const SHA1 = '1'.repeat(40);
    t.github.setChecks(SHA1, [{ name: 'test', status: 'in_progress', conclusion: null }]);
    await pollWith(t, { mergeable: true });
    expect((await t.lifecycle()).merge).toMatchObject({ result: 'waiting', reason: 'check runs pending: test' });
    t.github.setChecks(SHA1, [{ name: 'test', status: 'completed', conclusion: 'success' }]);
    await pollWith(t, { mergeable: null });
    expect((await t.lifecycle()).merge).toMatchObject({
      result: 'waiting',
      reason: expect.stringContaining('computing'),
    });
    expect(t.github.count(`${PULL}/merge`)).toBe(0);
    await pollWith(t, { mergeable: true });
    expect(t.github.count(`${PULL}/merge`, { method: 'PUT', status: 200 })).toBe(1);
    expect((await t.lifecycle()).merge).toMatchObject({ result: 'merged', head_sha: SHA1, reason: null });
    await pollWith(t, {}); // the next read sees the merge: one merged prompt, no second merge
    expect(t.github.count(`${PULL}/merge`)).toBe(1);
    expect(await t.queued()).toEqual([expect.stringContaining('was merged')]);
  });

  test('auto_merge refused (405, or not mergeable): recorded, shown over REST and on the event log, not retried', async () => {
    const t = await createPrLifecycleEnv(cleanup, { switches: { auto_merge_enabled: true } });
    const api = await serveProviderAutomation(cleanup, t.env);
    t.github.setChecks('1'.repeat(40), [{ name: 'test', status: 'completed', conclusion: 'success' }]);
    t.github.mergeRefusal = { status: 405, message: 'Pull Request is not mergeable' };
    await pollWith(t, {});
    await pollWith(t, {});
    expect(t.github.count(`${PULL}/merge`)).toBe(1); // the same head is not tried again
    const path = `/api/tasks/${t.taskId}/prs/${t.linkId}/lifecycle`;
    const view = await api.request('GET', path);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      state: 'open',
      merge: {
        result: 'refused',
        by_github: true,
        reason: `merging pull request #${NUMBER} failed: GitHub answered 405: Pull Request is not mergeable`,
      },
    });
    expect((await api.request('GET', `/api/tasks/other/prs/${t.linkId}/lifecycle`)).status).toBe(404);
    expect(JSON.stringify(view.body)).not.toContain(GITHUB_TOKEN);
    // GitHub itself says not mergeable (a conflict): a refusal without a merge call.
    t.github.mergeRefusal = null;
    t.github.setChecks(SHA2, [{ name: 'test', status: 'completed', conclusion: 'success' }]);
    await pollWith(t, { sha: SHA2, mergeable: false, mergeable_state: 'dirty' });
    expect(t.github.count(`${PULL}/merge`)).toBe(1);
    expect((await t.lifecycle()).merge).toMatchObject({
      result: 'refused',
      by_github: false,
      head_sha: SHA2,
      reason: 'not mergeable (mergeable_state: dirty)',
    });
    const events = await t.env.uow.read.events.after(0, { taskId: t.taskId }, 1000);
    const merges = events.filter((e) => e.type === 'pr.lifecycle').map((e) => e.data.lifecycle);
    expect(merges).toEqual([
      expect.objectContaining({ merge: expect.objectContaining({ result: 'refused', by_github: true }) }),
      expect.objectContaining({ merge: expect.objectContaining({ result: 'refused', by_github: false }) }),
    ]);
  });

  test('only links with a switch on are polled; no credential is a poll error on the link', async () => {
    const off = await createPrLifecycleEnv(cleanup, { switches: {} });
    await off.poller.pollOnce();
    expect(off.github.count(PULL)).toBe(0);
    const bare = await createPrLifecycleEnv(cleanup, { credential: false });
    await bare.poller.pollOnce();
    expect((await bare.lifecycle()).poll_error).toBe('no GitHub credentials are configured for this workspace');
  });
});
