// The GitHub PR lifecycle in process: the provider-automation env (fresh SQLite, the backend's
// services) on a manual clock with the real GitHub port pointed at a local GitHub v3 test server
// (tokens verified, ETags cached), and the backend's PR poller driven by the test (pollOnce, no timers).
import { type AutomationPatch, createGithubPort, recordKicks } from '@kandev/backend/testing';
import type { Cleanup } from './cleanup';
import { GITHUB_TOKEN, startGithubServer } from './github-server';
import { createProviderAutomationEnv, NOW } from './provider-automation';

export const REPO = 'acme/svc';
export const NUMBER = 7;
export const POLICY = { intervalMs: 1_000, jitterMs: 0, concurrency: 2, backoffBaseMs: 10_000, backoffMaxMs: 80_000 };

export async function createPrLifecycleEnv(
  cleanup: Cleanup,
  options: { switches?: AutomationPatch; credential?: boolean } = {},
) {
  let now = Date.parse(NOW);
  const github = await startGithubServer(cleanup);
  const env = await createProviderAutomationEnv(cleanup, {
    clock: () => new Date(now),
    github: createGithubPort(github.apiUrl),
    config: { githubPoll: POLICY },
    random: () => 1, // full jitter: each backoff wait is exactly its ceiling, so the test can step to it
  });
  await env.uow.read.workspaces.insert({ id: 'w', name: 'w', createdAt: NOW });
  const repo = await env.repositories.create({ workspace_id: 'w', remote_url: `https://github.com/${REPO}` });
  const task = await env.tasks.create({ workspace_id: 'w', title: 't', repository_ids: [repo.id] });
  const taskId = task.task.id;
  const link = await env.links.linkPr(taskId, { repository_id: repo.id, number: NUMBER });
  await env.uow.read.taskPrs.updateOptions(
    [link.id],
    options.switches ?? { prompt_on_review_requested: true, prompt_on_merged: true, prompt_on_closed: true },
    NOW,
  );
  github.setPull(REPO, NUMBER, {});
  if (options.credential !== false) await env.credentials.put('w', 'github', { token: GITHUB_TOKEN });
  const { prPoller: poller } = env.backend;
  return {
    env,
    github,
    poller,
    taskId,
    linkId: link.id,
    kicked: recordKicks(env.backend),
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
    /** The task's queued prompts' texts, oldest first. */
    queued: async () => (await env.uow.read.promptQueue.listQueued(taskId)).map((p) => p.prompt),
    lifecycle: async () => {
      const view = await env.uow.read.prLifecycle.view(taskId, link.id);
      if (view === undefined) throw new Error('link gone');
      return view;
    },
  };
}

export type PrLifecycleEnv = Awaited<ReturnType<typeof createPrLifecycleEnv>>;
