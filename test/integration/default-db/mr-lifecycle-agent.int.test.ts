// The GitLab MR lifecycle end to end, black box: a real backend (short poll interval) polls a local
// GitLab v4 test server with the workspace's own credential; the scripted test agent turns the
// merged prompt on with update_task_mr_automation_kandev; the merge reaches it through the queue of
// the agent runtime, and its answer is in the conversation.
import { AgentRuntimeApi, RUNTIME_TIMEOUT_MS, waitForAgentReady } from '../../helpers/agent-runtime';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { GITLAB_TEST_HOST, GITLAB_TOKEN, startGitlabServer } from '../../helpers/gitlab-server';
import { startBackend, stopProcess } from '../../helpers/processes';
import { waitForAnotherPoll, waitUntil } from '../../helpers/wait';

const PROJECT = 'acme/group/svc';
const IID = 5;

interface LifecycleBody {
  state: string;
  polled_at: string | null;
  poll_error: string | null;
  checkpoint: { state: string } | null;
  last_evaluation: { result: string; prompted: string[] } | null;
}

describe('GitLab MR lifecycle with a real backend and the test agent', () => {
  const cleanup = useCleanup();

  test('merged: the task agent gets one prompt through its queue and answers it', async () => {
    const gitlab = await startGitlabServer(cleanup, { prefix: '/gitlab' });
    gitlab.setMr(PROJECT, IID, { state: 'opened' });
    const backend = await startBackend(cleanup, {
      KANDEV_GITLAB_POLL_INTERVAL_MS: '100',
      KANDEV_GITLAB_POLL_JITTER_MS: '20',
      KANDEV_GITLAB_INSECURE_HOSTS: GITLAB_TEST_HOST, // the test server is plain http on loopback
    });
    cleanup.defer(() => stopProcess(backend.child, { graceMs: 10_000 }));
    const runtime = new AgentRuntimeApi(new BackendApi(backend.ready.url, backend.apiToken), cleanup, backend.logs);
    const { api } = runtime;
    const workspace = await api.workspace();
    const put = await api.request('PUT', `/api/workspaces/${workspace}/credentials/gitlab`, {
      token: GITLAB_TOKEN,
      base_url: gitlab.baseUrl,
    });
    expect(put).toMatchObject({ status: 200, body: { provider: 'gitlab', username: 'reviewer-bot' } });
    const repo = await api.repository(workspace, { remote_url: `https://gitlab.com/${PROJECT}` });
    const profile = await runtime.profile('gitlab-lifecycle');
    const task = await api.task(workspace, { title: 't', agent_profile_id: profile, repository_ids: [repo.id] });
    const link = (
      await api.request<{ id: string }>('POST', `/api/tasks/${task.id}/mrs`, {
        repository_id: repo.id,
        project_path: PROJECT,
        iid: IID,
      })
    ).body;
    const session = await api.launch(task.id);
    await waitForAgentReady(runtime, session.session_id);

    // The agent turns the merged prompt on itself, through the MCP tool.
    await runtime.postPrompt(session.session_id, 'Please watch the merge request.');
    await runtime.waitForDrained(session.session_id, 1);
    const lifecycle = async () =>
      (await api.request<LifecycleBody>('GET', `/api/tasks/${task.id}/mrs/${link.id}/lifecycle`)).body;
    const wait = <T>(probe: () => Promise<T | undefined>, what: string) =>
      waitUntil(probe, { timeoutMs: RUNTIME_TIMEOUT_MS, logs: backend.logs, what });
    await wait(async () => ((await lifecycle()).checkpoint?.state === 'opened' ? true : undefined), 'the baseline');

    gitlab.setMr(PROJECT, IID, { state: 'merged' });
    const prompts = await runtime.waitForPrompts(
      session.session_id,
      (items) => items.length === 2 && items[1]!.status === 'completed',
      'the merged prompt answered',
    );
    const text = `GitLab: merge request ${PROJECT}!${IID} was merged. Wrap up the work that depended on it.`;
    expect(prompts[1]).toMatchObject({ prompt: text, status: 'completed' });
    expect(await runtime.agentReplies(task.id)).toEqual(['Watching the merge request.', `#1 got: ${text}`]);

    // Later polls of the same merged MR queue nothing more; the link shows the outcome.
    await waitForAnotherPoll(lifecycle, { timeoutMs: RUNTIME_TIMEOUT_MS, logs: backend.logs });
    expect(await runtime.prompts(session.session_id)).toHaveLength(2);
    expect(await lifecycle()).toMatchObject({ state: 'merged', poll_error: null, checkpoint: { state: 'merged' } });
    expect(gitlab.requests.every((r) => r.authorized && r.path.startsWith('/gitlab/api/v4/'))).toBe(true);
    expect(backend.logs()).not.toContain(GITLAB_TOKEN);
  });
});
