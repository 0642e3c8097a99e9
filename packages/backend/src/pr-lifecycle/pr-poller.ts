import { GithubError } from '../github/github-client';
import type { Logger } from '../logger';
import { LinkPoller, type LinkPollPolicy, type Timers } from '../mr-lifecycle/link-poller';
import type { UnitOfWork } from '../store/unit-of-work';
import type { PrEvaluator, WorkspaceGithub } from './pr-evaluator';
import type { PrPollTarget } from './pr-lifecycle-store';

export interface PrPollerDeps {
  uow: UnitOfWork;
  clock: () => Date;
  logger: Logger;
  github: WorkspaceGithub;
  evaluator: PrEvaluator;
  policy: LinkPollPolicy;
  random?: () => number;
  timers?: Timers;
}

/** How long GitHub asked us to wait: Retry-After, else until x-ratelimit-reset (by our clock). */
export function githubWaitMs(error: unknown, nowMs: number): number | null {
  if (!(error instanceof GithubError)) return null;
  if (error.retryAfterMs !== null) return error.retryAfterMs;
  return error.resetAtMs === null ? null : Math.max(0, error.resetAtMs - nowMs);
}

/**
 * Every interval, one conditional read (ETag) per linked PR with a switch on: the PR, and its reviews
 * and head check runs when auto-fix or auto-merge is on. The read moves the link and is evaluated
 * (a 304 stands for the previous read). Scheduling and per-link backoff are the MR poller's.
 */
export class PrPoller {
  private readonly poller: LinkPoller<PrPollTarget>;

  constructor(private readonly deps: PrPollerDeps) {
    const { uow, clock, logger } = deps;
    this.poller = new LinkPoller<PrPollTarget>({
      clock,
      logger,
      policy: deps.policy,
      random: deps.random,
      timers: deps.timers,
      name: 'PR poll',
      listTargets: () => uow.read.prLifecycle.listPollable(),
      poll: (target) => this.poll(target),
      requestedWaitMs: githubWaitMs,
      onFailure: async (target, error, delayMs) => {
        const message = error instanceof GithubError ? error.message : 'reading the pull request failed';
        logger.warn({ linkId: target.linkId, err: error, delayMs }, 'PR poll failed; backing off');
        await uow.read.prLifecycle.recordPollError(target.linkId, message, clock().toISOString());
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

  private async poll(target: PrPollTarget): Promise<void> {
    const { uow, clock, logger } = this.deps;
    const client = await this.deps.github(target.workspaceId);
    if (client === undefined) {
      throw new GithubError('unauthorized', 'no GitHub credentials are configured for this workspace', null);
    }
    const also = { reviews: target.readChecks, checks: target.readChecks };
    const { observation } = await client.pullRequest(target.owner, target.repo, target.number, also);
    await uow.read.prLifecycle.recordObservation(target.linkId, observation, clock().toISOString());
    await this.deps.evaluator
      .handle({ ...target, observation })
      .catch((err: unknown) => logger.error({ err, linkId: target.linkId }, 'PR evaluation failed'));
  }
}
