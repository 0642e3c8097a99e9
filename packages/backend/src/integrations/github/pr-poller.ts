import { GithubError } from './github-client';
import { LinkPoller, type LinkPollerDeps, type LinkPollPolicy } from '../review-lifecycle/link-poller';
import type { BackendMetrics } from '../../platform/metrics/backend-metrics';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import type { PrEvaluator, WorkspaceGithub } from './pr-evaluator';
import type { PrPollTarget } from './pr-lifecycle-store';

export interface PrPollerDeps extends Pick<
  LinkPollerDeps<PrPollTarget>,
  'clock' | 'logger' | 'random' | 'timers' | 'replicas'
> {
  uow: UnitOfWork;
  github: WorkspaceGithub;
  evaluator: PrEvaluator;
  policy: LinkPollPolicy;
  /** Counts answered and failed polls. */
  metrics?: Pick<BackendMetrics, 'githubPoll' | 'githubPollFailed'>;
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
export class PrPoller extends LinkPoller<PrPollTarget> {
  constructor(deps: PrPollerDeps) {
    const { uow, clock, logger } = deps;
    super({
      ...deps,
      name: 'PR poll',
      listTargets: () => uow.read.prLifecycle.listPollable(),
      poll: (target) => pollPr(deps, target),
      requestedWaitMs: githubWaitMs,
      onFailure: async (target, error, delayMs) => {
        deps.metrics?.githubPollFailed(error);
        const message = error instanceof GithubError ? error.message : 'reading the pull request failed';
        logger.warn({ linkId: target.linkId, err: error, delayMs }, 'PR poll failed; backing off');
        await uow.read.prLifecycle.recordPollError(target.linkId, message, clock().toISOString());
      },
    });
  }
}

async function pollPr(deps: PrPollerDeps, target: PrPollTarget): Promise<void> {
  const { uow, clock, logger } = deps;
  const client = await deps.github(target.workspaceId);
  if (client === undefined) {
    throw new GithubError('unauthorized', 'no GitHub credentials are configured for this workspace', null);
  }
  const also = { reviews: target.readChecks, checks: target.readChecks };
  const { observation, notModified } = await client.pullRequest(target.owner, target.repo, target.number, also);
  deps.metrics?.githubPoll(notModified);
  await uow.read.prLifecycle.recordObservation(target.linkId, observation, clock().toISOString());
  await deps.evaluator
    .handle({ ...target, observation })
    .catch((err: unknown) => logger.error({ err, linkId: target.linkId }, 'PR evaluation failed'));
}
