import { GitlabError } from '../gitlab/gitlab-client';
import type { Logger } from '../logger';
import type { BackendMetrics } from '../metrics/backend-metrics';
import type { UnitOfWork } from '../store/unit-of-work';
import { LinkPoller, type LinkPollPolicy, type Timers } from './link-poller';
import type { WorkspaceGitlab } from './mr-evaluator';
import type { PollTarget } from './mr-lifecycle-store';
import type { MrUpdates } from './mr-updates';

export type { Timers } from './link-poller';
export type MrPollPolicy = LinkPollPolicy;

export interface MrPollerDeps {
  uow: UnitOfWork;
  clock: () => Date;
  logger: Logger;
  gitlab: WorkspaceGitlab;
  updates: MrUpdates;
  policy: MrPollPolicy;
  random?: () => number;
  timers?: Timers;
  /** Counts reads and failed reads. */
  metrics?: Pick<BackendMetrics, 'gitlabPoll' | 'gitlabPollFailed'>;
}

/**
 * One status read per poll for every linked MR whose task has a lifecycle prompt switch on. The read
 * updates the link and is emitted, reviewers included, as an 'MR updated' event. A failing link backs
 * off alone (link-poller.ts); its error is shown on the link.
 */
export class MrPoller {
  private readonly poller: LinkPoller<PollTarget>;

  constructor(private readonly deps: MrPollerDeps) {
    const { uow, clock, logger } = deps;
    this.poller = new LinkPoller<PollTarget>({
      clock,
      logger,
      policy: deps.policy,
      random: deps.random,
      timers: deps.timers,
      name: 'MR poll',
      listTargets: () => uow.read.mrLifecycle.listPollable(),
      poll: (target) => this.poll(target),
      requestedWaitMs: (error) => (error instanceof GitlabError ? error.retryAfterMs : null),
      onFailure: async (target, error, delayMs) => {
        deps.metrics?.gitlabPollFailed(error);
        const message = error instanceof GitlabError ? error.message : 'reading the merge request failed';
        logger.warn({ linkId: target.linkId, err: error, delayMs }, 'MR poll failed; backing off');
        await uow.read.mrLifecycle.recordPollError(target.linkId, message, clock().toISOString());
      },
    });
  }

  start(): void {
    this.poller.start();
  }

  stop(): Promise<void> {
    return this.poller.stop();
  }

  /** One poll of every due link; resolves when their reads and evaluations are done. */
  pollOnce(): Promise<void> {
    return this.poller.pollOnce();
  }

  private async poll(target: PollTarget): Promise<void> {
    const { uow, clock } = this.deps;
    this.deps.metrics?.gitlabPoll();
    const client = await this.deps.gitlab(target.workspaceId);
    if (client === undefined) {
      throw new GitlabError('unauthorized', 'no GitLab credentials are configured for this workspace', null);
    }
    const observed = await client.mergeRequest(target.projectPath, target.iid);
    await uow.read.mrLifecycle.recordObservation(target.linkId, observed, clock().toISOString());
    await this.deps.updates.emit({
      ...target,
      state: observed.state,
      headSha: observed.headSha,
      reviewers: { valid: true, usernames: observed.reviewers },
    });
  }
}
