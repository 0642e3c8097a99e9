import type { GitlabClient } from './gitlab-client';
import type { Logger } from '../../platform/logger/logger';
import type { PromptKicker } from '../../runtime/prompt-queue/drain-gate';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import {
  coalescingKey,
  type Evaluation,
  evaluate,
  needsReviewers,
  promptText,
} from '../review-lifecycle/lifecycle-rules';
import { EvaluationLost, KeyedSerializer, queueCoalesced, unlessLost } from '../review-lifecycle/lifecycle-prompts';
import type { LastEvaluation } from '../review-lifecycle/lifecycle-columns';
import type { EvaluationRecord } from './mr-lifecycle-store';
import type { MrUpdatedEvent } from './mr-updates';

/** The workspace's own GitLab client (its stored token and base URL), or undefined without one. */
export type WorkspaceGitlab = (workspaceId: string) => Promise<GitlabClient | undefined>;

export interface MrEvaluatorDeps {
  uow: UnitOfWork;
  clock: () => Date;
  logger: Logger;
  gitlab: WorkspaceGitlab;
  prompts: PromptKicker;
}

interface Reviewers {
  usernames: readonly string[] | null;
  /** The MR state the fallback read saw (fresher than an event's unobserved state). */
  state?: MrUpdatedEvent['state'];
  source: LastEvaluation['reviewers_source'];
  error: string | null;
}

/**
 * Evaluates 'MR updated' events against the lifecycle rules and queues the prompts, one evaluation
 * at a time per task + repository + project + MR (a second event for the same MR waits its turn).
 */
export class MrEvaluator {
  private readonly serial = new KeyedSerializer();

  constructor(private readonly deps: MrEvaluatorDeps) {}

  /** Resolves once this event's evaluation committed (or failed and was recorded). */
  handle(event: MrUpdatedEvent): Promise<void> {
    const key = `${event.taskId}|${event.repositoryId}|${event.projectPath}|${event.iid}`;
    return this.serial.run(key, () => this.evaluateNow(event));
  }

  private async evaluateNow(event: MrUpdatedEvent): Promise<void> {
    const { uow, clock, logger } = this.deps;
    const record = await uow.read.mrLifecycle.loadForEvaluation(event.linkId);
    if (record === undefined) return; // unlinked since the read
    const credential = await uow.read.workspaceCredentials.find(record.workspaceId, 'gitlab');
    const username = credential?.username ?? null;
    const reviewers = await this.reviewersFor(event, record, username);
    const now = clock().toISOString();
    if (record.checkpoint === null && !event.reviewers.valid && reviewers.state === undefined) {
      // Nothing was observed: a baseline from an unobserved state could fake a transition later.
      await uow.read.mrLifecycle.saveEvaluation(record.linkId, null, {
        ...lastEvaluation({ result: 'unchanged', reviewSkipped: null }, [], reviewers, now),
        error: reviewers.error ?? 'nothing observed yet: the first poll sets the baseline',
      });
      return;
    }
    const evaluation = evaluate({
      checkpoint: record.checkpoint,
      state: reviewers.state ?? event.state,
      reviewers: reviewers.usernames,
      username,
      switches: record.switches,
    });
    const sessions = await unlessLost(
      uow.transaction(async (stores) => {
        // First: another replica that evaluated this transition since our read makes us roll back.
        if (!(await stores.mrLifecycle.claimEvaluation(record.linkId, record.version))) throw new EvaluationLost();
        const { prompted, kicked } = await queueCoalesced(
          stores,
          record.taskId,
          now,
          evaluation.prompts.map((prompt) => ({
            key: coalescingKey(record.linkId, prompt),
            label: prompt.event,
            text: promptText(prompt.event, record.projectPath, record.iid, username),
            metadata: { origin: 'gitlab_mr_lifecycle', event: prompt.event, mr_link_id: record.linkId },
          })),
        );
        await stores.mrLifecycle.saveEvaluation(
          record.linkId,
          evaluation.checkpoint,
          lastEvaluation(evaluation, prompted, reviewers, now),
        );
        // Only a transition that queued prompts is news to a watcher; the lifecycle is GET …/lifecycle's view.
        if (prompted.length > 0) {
          const lifecycle = await stores.mrLifecycle.view(record.taskId, record.linkId);
          await stores.events.append({
            type: 'mr.lifecycle',
            taskId: record.taskId,
            sessionId: null,
            data: { mr_link_id: record.linkId, project_path: record.projectPath, iid: record.iid, prompted, lifecycle },
            at: now,
          });
        }
        return kicked;
      }),
    );
    if (sessions === undefined) {
      logger.info({ linkId: record.linkId }, 'evaluation superseded by a newer one (another replica)');
      return;
    }
    logger.info(
      { linkId: record.linkId, result: evaluation.result, prompts: evaluation.prompts.length },
      'MR evaluated',
    );
    for (const sessionId of new Set(sessions)) void this.deps.prompts.kick(sessionId);
  }

  /**
   * The event's own observation when valid (a valid empty list means 'not requested'). Otherwise,
   * only when the rules need one, a single read with the workspace's own client: no ambient token.
   */
  private async reviewersFor(
    event: MrUpdatedEvent,
    record: EvaluationRecord,
    username: string | null,
  ): Promise<Reviewers> {
    if (event.reviewers.valid) return { usernames: event.reviewers.usernames, source: 'observation', error: null };
    if (!needsReviewers(event.state, username, record.switches))
      return { usernames: null, source: 'none', error: null };
    try {
      // Inside the try: a stored credential the host allow-list refuses fails here, like a failed read.
      const client = await this.deps.gitlab(record.workspaceId);
      if (client === undefined) {
        return { usernames: null, source: 'none', error: 'no GitLab credentials are configured for this workspace' };
      }
      const observed = await client.mergeRequest(record.projectPath, record.iid);
      return { usernames: observed.reviewers, state: observed.state, source: 'fallback', error: null };
    } catch (error) {
      const message = error instanceof Error ? error.message : 'reading the reviewers failed';
      return { usernames: null, source: 'none', error: message };
    }
  }
}

function lastEvaluation(
  evaluation: Pick<Evaluation, 'result' | 'reviewSkipped'>,
  prompted: string[],
  reviewers: Reviewers,
  at: string,
): LastEvaluation {
  return {
    at,
    // Every prompt's transition was queued before (a repeated observation): nothing new happened.
    result: evaluation.result === 'prompted' && prompted.length === 0 ? 'unchanged' : evaluation.result,
    prompted,
    review_skipped: evaluation.reviewSkipped,
    reviewers_source: reviewers.source,
    error: reviewers.error,
  };
}
