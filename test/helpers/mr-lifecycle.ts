// The GitLab MR lifecycle in process: the provider-automation env (fresh SQLite, the backend's
// services) on a manual clock with the real GitLab port (tokens verified), a GitLab test server, and
// the backend's poller + evaluator driven by the test (pollOnce, no timers).
import { type AutomationPatch, type BackendConfig, createGitlabPort, recordKicks } from '@kandev/backend/testing';
import type { Cleanup } from './cleanup';
import { GITLAB_TEST_HOST, GITLAB_TOKEN, startGitlabServer } from './gitlab-server';
import { createProviderAutomationEnv, NOW } from './provider-automation';

export const PROJECT = 'acme/group/svc';
export const IID = 5;
export const POLICY = { intervalMs: 1_000, jitterMs: 0, concurrency: 2, backoffBaseMs: 10_000, backoffMaxMs: 80_000 };

export async function createMrLifecycleEnv(
  cleanup: Cleanup,
  options: {
    prefix?: string;
    switches?: AutomationPatch;
    credential?: boolean;
    /** KANDEV_GITLAB_INSECURE_HOSTS; default: the test server's (plain http on loopback). */
    insecureHosts?: string[];
    /** Lease settings (several replicas over this env's database); default: one replica. */
    replicas?: BackendConfig['replicas'];
  } = {},
) {
  let now = Date.parse(NOW);
  const env = await createProviderAutomationEnv(cleanup, {
    clock: () => new Date(now),
    gitlab: createGitlabPort(),
    config: {
      gitlabPoll: POLICY,
      gitlabInsecureHosts: options.insecureHosts ?? [GITLAB_TEST_HOST],
      ...(options.replicas === undefined ? {} : { replicas: options.replicas }),
    },
    random: () => 1, // full jitter: each backoff wait is exactly its ceiling, so the test can step to it
  });
  const gitlab = await startGitlabServer(cleanup, { prefix: options.prefix });
  await env.uow.read.workspaces.insert({ id: 'w', name: 'w', createdAt: NOW });
  const repo = await env.repositories.create({ workspace_id: 'w', remote_url: `https://gitlab.com/${PROJECT}` });
  const task = await env.tasks.create({ workspace_id: 'w', title: 't', repository_ids: [repo.id] });
  const taskId = task.task.id;
  const link = await env.links.linkMr(taskId, { repository_id: repo.id, project_path: PROJECT, iid: IID });
  await env.uow.read.taskMrs.updateOptions(
    [link.id],
    options.switches ?? { prompt_on_review_requested: true, prompt_on_merged: true, prompt_on_closed: true },
    NOW,
  );
  gitlab.setMr(PROJECT, IID, { state: 'opened', reviewers: [] });
  const { credentials, evaluator, poller } = env;
  if (options.credential !== false)
    await credentials.put('w', 'gitlab', { token: GITLAB_TOKEN, base_url: gitlab.baseUrl });
  const kicked = recordKicks(env.backend);
  return {
    env,
    gitlab,
    credentials,
    evaluator,
    poller,
    taskId,
    repositoryId: repo.id,
    linkId: link.id,
    kicked,
    clock: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
    /** The task's queued prompts' texts, oldest first. */
    queued: async () => (await env.uow.read.promptQueue.listQueued(taskId)).map((p) => p.prompt),
    lifecycle: async () => {
      const view = await env.uow.read.mrLifecycle.view(taskId, link.id);
      if (view === undefined) throw new Error('link gone');
      return view;
    },
  };
}

export type MrLifecycleEnv = Awaited<ReturnType<typeof createMrLifecycleEnv>>;
