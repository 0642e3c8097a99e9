import type { Instruments } from '@kandev/metrics';
import { outcomeOf } from './outcome';

const GRPC_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Provider pushes to agentctl and the GitLab / GitHub link polls. */
export function providerMetrics(instruments: Instruments) {
  const update = instruments.outcomes({
    total: {
      name: 'kandev_backend_update_providers_total',
      help: 'Provider updates sent to agentctl by outcome (applied, unchanged, stale, or the error code)',
    },
    duration: {
      name: 'kandev_backend_update_providers_duration_seconds',
      help: 'Provider update round trip (its StreamProviderUpdates call) as the backend sees it',
      buckets: GRPC_BUCKETS,
    },
  });
  const polls = instruments.counter({
    name: 'kandev_backend_gitlab_polls_total',
    help: 'Polls of one linked GitLab merge request by the MR poller',
  });
  const pollErrors = instruments.counter({
    name: 'kandev_backend_gitlab_poll_errors_total',
    help: 'MR polls that failed (the read or recording it), by error code',
    labelNames: ['code'] as const,
  });
  const githubPolls = instruments.counter({
    name: 'kandev_backend_github_polls_total',
    help: 'Polls of one linked GitHub pull request by the PR poller, by result (read, or not_modified: every read a 304)',
    labelNames: ['result'] as const,
    known: { result: ['read', 'not_modified'] },
  });
  const githubPollErrors = instruments.counter({
    name: 'kandev_backend_github_poll_errors_total',
    help: 'PR polls that failed (the read or recording it), by error code',
    labelNames: ['code'] as const,
  });

  return {
    /**
     * Runs a StreamProviderUpdates call: each update counted by its outcome (or its error's code), and
     * the call's round trip observed once per update, as each push's round trip.
     */
    async updateProvidersBatch<T extends ({ ok: true; result: { outcome: string } } | { ok: false; error: unknown })[]>(
      updateCount: number,
      run: () => Promise<T>,
    ): Promise<T> {
      const started = process.hrtime.bigint();
      const observe = (outcome: string) => update(outcome, Number(process.hrtime.bigint() - started) / 1e9);
      try {
        const outcomes = await run();
        for (const item of outcomes) observe(item.ok ? item.result.outcome : outcomeOf(item.error));
        return outcomes;
      } catch (err) {
        for (let i = 0; i < updateCount; i++) observe(outcomeOf(err));
        throw err;
      }
    },
    /** One poll of one linked MR (a read and what follows it). */
    gitlabPoll(): void {
      polls.inc();
    },
    gitlabPollFailed(error: unknown): void {
      pollErrors.inc({ code: outcomeOf(error) });
    },
    /** One poll of one linked PR that got an answer (`notModified`: only 304s, no rate limit spent). */
    githubPoll(notModified: boolean): void {
      githubPolls.inc({ result: notModified ? 'not_modified' : 'read' });
    },
    githubPollFailed(error: unknown): void {
      githubPollErrors.inc({ code: outcomeOf(error) });
    },
  };
}
