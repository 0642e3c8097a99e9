// In-process wiring for the GitLab MR lifecycle: the provider-automation env (fresh SQLite, real
// services), a GitLab test server, and the poller + evaluator on a manual clock (pollOnce, no timers).
import { createGitlabVerifier, gitlabClientFor } from '../../packages/backend/src/gitlab/gitlab-credentials';
import { MrEvaluator, type WorkspaceGitlab } from '../../packages/backend/src/mr-lifecycle/mr-evaluator';
import { MrPoller } from '../../packages/backend/src/mr-lifecycle/mr-poller';
import { MrUpdates } from '../../packages/backend/src/mr-lifecycle/mr-updates';
import type { AutomationPatch } from '../../packages/backend/src/provider-automation/review-link';
import { WorkspaceCredentialService } from '../../packages/backend/src/provider-automation/workspace-credential-service';
import type { Cleanup } from './cleanup';
import { GITLAB_TOKEN, startGitlabServer } from './gitlab-server';
import { createProviderAutomationEnv, NOW } from './provider-automation';

export const PROJECT = 'acme/group/svc';
export const IID = 5;
export const POLICY = { intervalMs: 1_000, jitterMs: 0, concurrency: 2, backoffBaseMs: 10_000, backoffMaxMs: 80_000 };

export async function createMrLifecycleEnv(
  cleanup: Cleanup,
  options: { prefix?: string; switches?: AutomationPatch; credential?: boolean } = {},
) {
  const env = await createProviderAutomationEnv(cleanup);
  const gitlab = await startGitlabServer(cleanup, { prefix: options.prefix });
  let now = Date.parse(NOW);
  const clock = () => new Date(now);
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
  const credentials = new WorkspaceCredentialService({
    uow: env.uow,
    clock,
    verifiers: { gitlab: createGitlabVerifier() },
  });
  if (options.credential !== false)
    await credentials.put('w', 'gitlab', { token: GITLAB_TOKEN, base_url: gitlab.baseUrl });
  const workspaceGitlab: WorkspaceGitlab = async (workspaceId) => {
    const secret = await env.uow.read.workspaceCredentials.findSecret(workspaceId, 'gitlab');
    return secret === undefined ? undefined : gitlabClientFor(secret);
  };
  const kicked: string[] = [];
  const prompts = { kick: (sessionId: string) => Promise.resolve(void kicked.push(sessionId)) };
  const evaluator = new MrEvaluator({ uow: env.uow, clock, logger: env.logger, gitlab: workspaceGitlab, prompts });
  const updates = new MrUpdates(env.logger);
  updates.subscribe((event) => evaluator.handle(event));
  const poller = new MrPoller({
    uow: env.uow,
    clock,
    logger: env.logger,
    gitlab: workspaceGitlab,
    updates,
    policy: POLICY,
    random: () => 1, // full jitter: each backoff wait is exactly its ceiling, so the test can step to it
  });
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
