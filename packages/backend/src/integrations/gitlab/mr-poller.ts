import { GitlabError } from './gitlab-client';
import type { BackendMetrics } from '../../platform/metrics/backend-metrics';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import { LinkPoller, type LinkPollerDeps, type LinkPollPolicy } from '../review-lifecycle/link-poller';
import type { WorkspaceGitlab } from './mr-evaluator';
import type { PollTarget } from './mr-lifecycle-store';
import type { MrUpdates } from './mr-updates';

export type { Timers } from '../review-lifecycle/link-poller';
export type MrPollPolicy = LinkPollPolicy;

export interface MrPollerDeps extends Pick<
  LinkPollerDeps<PollTarget>,
  'clock' | 'logger' | 'random' | 'timers' | 'replicas'
> {
  uow: UnitOfWork;
  gitlab: WorkspaceGitlab;
  updates: MrUpdates;
  policy: MrPollPolicy;
  /** Counts reads and failed reads. */
  metrics?: Pick<BackendMetrics, 'gitlabPoll' | 'gitlabPollFailed'>;
}

/**
 * One status read per poll for every linked MR whose task has a lifecycle prompt switch on. The read
 * updates the link and is emitted, reviewers included, as an 'MR updated' event. A failing link backs
 * off alone (link-poller.ts); its error is shown on the link.
 */
export class MrPoller extends LinkPoller<PollTarget> {
  constructor(deps: MrPollerDeps) {
    const { uow, clock, logger } = deps;
    super({
      ...deps,
      name: 'MR poll',
      listTargets: () => uow.read.mrLifecycle.listPollable(),
      poll: (target) => pollMr(deps, target),
      requestedWaitMs: (error) => (error instanceof GitlabError ? error.retryAfterMs : null),
      onFailure: async (target, error, delayMs) => {
        deps.metrics?.gitlabPollFailed(error);
        const message = error instanceof GitlabError ? error.message : 'reading the merge request failed';
        logger.warn({ linkId: target.linkId, err: error, delayMs }, 'MR poll failed; backing off');
        await uow.read.mrLifecycle.recordPollError(target.linkId, message, clock().toISOString());
      },
    });
  }
}

async function pollMr(deps: MrPollerDeps, target: PollTarget): Promise<void> {
  const { uow, clock } = deps;
  deps.metrics?.gitlabPoll();
  const client = await deps.gitlab(target.workspaceId);
  if (client === undefined) {
    throw new GitlabError('unauthorized', 'no GitLab credentials are configured for this workspace', null);
  }
  const observed = await client.mergeRequest(target.projectPath, target.iid);
  await uow.read.mrLifecycle.recordObservation(target.linkId, observed, clock().toISOString());
  await deps.updates.emit({
    ...target,
    state: observed.state,
    headSha: observed.headSha,
    reviewers: { valid: true, usernames: observed.reviewers },
  });
}
