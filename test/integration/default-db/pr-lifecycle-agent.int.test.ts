// The GitHub PR lifecycle end to end, black box: a real backend (short poll interval,
// KANDEV_GITHUB_API_URL on a local GitHub v3 test server) with the workspace's verified token; the
// scripted test agent turns auto-fix, auto-merge and the merged prompt on with
// update_task_pr_automation_kandev. A failed check reaches it as one fix prompt; the fixed commit's
// passing checks get the PR merged by the backend, and the merge reaches it as one prompt.
import { AgentRuntimeApi, RUNTIME_TIMEOUT_MS, waitForAgentReady } from '../../helpers/agent-runtime';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { GITHUB_TEST_LOGIN, GITHUB_TOKEN, startGithubServer } from '../../helpers/github-server';
import { startBackend, stopProcess } from '../../helpers/processes';
import { waitForAnotherPoll } from '../../helpers/wait';

const REPO = 'acme/svc';
const NUMBER = 7;
const SHA1 = '1'.repeat(40);
const SHA2 = '2'.repeat(40);

interface LifecycleBody {
  state: string;
  polled_at: string | null;
  poll_error: string | null;
  merge: { result: string; head_sha: string } | null;
}

describe('GitHub PR lifecycle with a real backend and the test agent', () => {
  const cleanup = useCleanup();

  test('auto-fix prompts once for the failing commit; auto-merge merges the fixed one; merged prompts once', async () => {
    const github = await startGithubServer(cleanup);
    github.setPull(REPO, NUMBER, { sha: SHA1 });
    github.setChecks(SHA1, [{ name: 'test', status: 'completed', conclusion: 'failure' }]);
    const backend = await startBackend(cleanup, {
      KANDEV_GITHUB_API_URL: github.apiUrl,
      KANDEV_GITHUB_POLL_INTERVAL_MS: '100',
      KANDEV_GITLAB_POLL_JITTER_MS: '20',
    });
    cleanup.defer(() => stopProcess(backend.child, { graceMs: 10_000 }));
    const runtime = new AgentRuntimeApi(new BackendApi(backend.ready.url, backend.apiToken), cleanup, backend.logs);
    const { api } = runtime;
    const workspace = await api.workspace();
    const put = await api.request('PUT', `/api/workspaces/${workspace}/credentials/github`, { token: GITHUB_TOKEN });
    expect(put).toMatchObject({ status: 200, body: { provider: 'github', username: GITHUB_TEST_LOGIN } });
    const repo = await api.repository(workspace, { remote_url: `https://github.com/${REPO}` });
    const profile = await runtime.profile('github-lifecycle');
    const task = await api.task(workspace, { title: 't', agent_profile_id: profile, repository_ids: [repo.id] });
    const link = (
      await api.request<{ id: string }>('POST', `/api/tasks/${task.id}/prs`, { repository_id: repo.id, number: NUMBER })
    ).body;
    const session = await api.launch(task.id);
    await waitForAgentReady(runtime, session.session_id);

    await runtime.postPrompt(session.session_id, 'Please watch the pull request.');
    const fix = `GitHub: pull request ${REPO}#${NUMBER} needs a fix at ${SHA1.slice(0, 12)} (check runs failed: test). Fix it and push.`;
    await runtime.waitForPrompts(
      session.session_id,
      (items) => items.length === 2 && items[1]!.status === 'completed',
      'the fix prompt answered',
    );
    const lifecycle = async () =>
      (await api.request<LifecycleBody>('GET', `/api/tasks/${task.id}/prs/${link.id}/lifecycle`)).body;
    // The barrier for "one fix prompt per commit": a later poll was observed, and still two prompts.
    await waitForAnotherPoll(lifecycle, { timeoutMs: RUNTIME_TIMEOUT_MS, logs: backend.logs });
    expect(await runtime.prompts(session.session_id)).toHaveLength(2);
    expect(github.count(`/repos/${REPO}/pulls/${NUMBER}/merge`)).toBe(0);

    // The fix is pushed: its checks pass, GitHub says mergeable, the backend merges it.
    github.setChecks(SHA2, [{ name: 'test', status: 'completed', conclusion: 'success' }]);
    github.setPull(REPO, NUMBER, { sha: SHA2 });
    const merged = `GitHub: pull request ${REPO}#${NUMBER} was merged. Wrap up the work that depended on it.`;
    const prompts = await runtime.waitForPrompts(
      session.session_id,
      (items) => items.length === 3 && items[2]!.status === 'completed',
      'the merged prompt answered',
    );
    expect(prompts.map((p) => p.prompt)).toEqual(['Please watch the pull request.', fix, merged]);
    expect(await runtime.agentReplies(task.id)).toEqual([
      'Watching the pull request.',
      `#1 got: ${fix}`,
      `#2 got: ${merged}`,
    ]);
    expect(github.count(`/repos/${REPO}/pulls/${NUMBER}/merge`, { method: 'PUT', status: 200 })).toBe(1);
    expect(await lifecycle()).toMatchObject({
      state: 'merged',
      poll_error: null,
      merge: { result: 'merged', head_sha: SHA2 },
    });
    // Unchanged reads were conditional 304s; every request carried the workspace's token.
    expect(github.requests.some((r) => r.status === 304)).toBe(true);
    expect(github.requests.every((r) => r.authorized)).toBe(true);
    expect(backend.logs()).not.toContain(GITHUB_TOKEN);
  });
});
