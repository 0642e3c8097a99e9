import type { PrObservation } from './github-api';
import { type GithubClient, GithubError } from './github-client';
import type { Logger } from '../../platform/logger/logger';
import { coalescingKey, evaluate, transitionText } from '../review-lifecycle/lifecycle-rules';
import {
  type CoalescedPrompt,
  EvaluationLost,
  KeyedSerializer,
  queueCoalesced,
  unlessLost,
} from '../review-lifecycle/lifecycle-prompts';
import type { PromptKicker } from '../../runtime/prompt-queue/drain-gate';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import type { PrEvaluationRecord, PrPollTarget } from './pr-lifecycle-store';
import {
  autoFixKey,
  autoFixReasons,
  autoFixText,
  mergeDecision,
  type MergeOutcome,
  mergeOutcomeChanged,
  rulesState,
} from './pr-rules';

/** The workspace's own GitHub client (its stored token), or undefined without one. */
export type WorkspaceGithub = (workspaceId: string) => Promise<GithubClient | undefined>;

export interface PrEvaluatorDeps {
  uow: UnitOfWork;
  clock: () => Date;
  logger: Logger;
  github: WorkspaceGithub;
  prompts: PromptKicker;
}

/** A poll's read of a PR (a 304 stands for the previous read). */
export interface PrUpdatedEvent extends PrPollTarget {
  observation: PrObservation;
}

/**
 * Evaluates each read of a PR: the transition prompts (the MR rules), one auto-fix prompt per head
 * commit, and auto-merge. One evaluation at a time per link; prompts, checkpoint, merge outcome and
 * the `pr.lifecycle` event commit in one transaction.
 */
export class PrEvaluator {
  private readonly serial = new KeyedSerializer();

  constructor(private readonly deps: PrEvaluatorDeps) {}

  handle(event: PrUpdatedEvent): Promise<void> {
    return this.serial.run(event.linkId, () => this.evaluateNow(event));
  }

  private async evaluateNow(event: PrUpdatedEvent): Promise<void> {
    const { uow, clock, logger } = this.deps;
    const record = await uow.read.prLifecycle.loadForEvaluation(event.linkId);
    if (record === undefined) return; // unlinked since the read
    const login = (await uow.read.workspaceCredentials.find(record.workspaceId, 'github'))?.username ?? null;
    const observed = event.observation;
    const evaluation = evaluate({
      checkpoint: record.checkpoint,
      state: rulesState(observed.state),
      reviewers: observed.requestedReviewers,
      username: login,
      switches: record.switches,
    });
    const ref = `${record.owner}/${record.repo}#${record.number}`;
    const metadata = (label: string) => ({ origin: 'github_pr_lifecycle', event: label, pr_link_id: record.linkId });
    const prompts: CoalescedPrompt[] = evaluation.prompts.map((prompt) => ({
      key: coalescingKey(record.linkId, prompt, 'github-pr'),
      label: prompt.event,
      text: transitionText(prompt.event, { provider: 'GitHub', change: 'pull request', ref }, login),
      metadata: metadata(prompt.event),
    }));
    const reasons = record.switches.auto_fix_enabled ? autoFixReasons(observed) : [];
    if (reasons.length > 0) {
      const text = autoFixText(ref, observed.headSha, reasons);
      prompts.push({
        key: autoFixKey(record.linkId, observed.headSha),
        label: 'auto_fix',
        text,
        metadata: metadata('auto_fix'),
      });
    }
    const merge = record.switches.auto_merge_enabled ? await this.autoMerge(record, observed) : null;
    const now = clock().toISOString();
    const sessions = await unlessLost(
      uow.transaction(async (stores) => {
        // First: another replica that evaluated this transition since our read makes us roll back.
        if (!(await stores.prLifecycle.claimEvaluation(record.linkId, record.version))) throw new EvaluationLost();
        const { prompted, kicked } = await queueCoalesced(stores, record.taskId, now, prompts);
        const lastEvaluation = {
          at: now,
          result:
            prompted.length > 0
              ? ('prompted' as const)
              : evaluation.result === 'baseline'
                ? ('baseline' as const)
                : ('unchanged' as const),
          prompted,
          review_skipped: evaluation.reviewSkipped,
          reviewers_source: 'observation' as const,
          error: null,
        };
        await stores.prLifecycle.saveEvaluation(record.linkId, evaluation.checkpoint, lastEvaluation, merge);
        const mergeNews = merge !== null && mergeOutcomeChanged(record.merge, merge);
        if (prompted.length > 0 || mergeNews) {
          const lifecycle = await stores.prLifecycle.view(record.taskId, record.linkId);
          await stores.events.append({
            type: 'pr.lifecycle',
            taskId: record.taskId,
            sessionId: null,
            data: {
              pr_link_id: record.linkId,
              repository: `${record.owner}/${record.repo}`,
              number: record.number,
              prompted,
              lifecycle,
            },
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
    logger.info({ linkId: record.linkId, result: evaluation.result, prompts: prompts.length }, 'PR evaluated');
    for (const sessionId of new Set(sessions)) void this.deps.prompts.kick(sessionId);
  }

  /** Merges when the rules say so; what happened (or why not) is the outcome shown on the link. */
  private async autoMerge(record: PrEvaluationRecord, observed: PrObservation): Promise<MergeOutcome | null> {
    const decision = mergeDecision(observed, record.merge);
    if (decision.action === 'none') return null;
    const outcome = (result: MergeOutcome['result'], reason: string | null, byGithub = false): MergeOutcome => ({
      at: this.deps.clock().toISOString(),
      head_sha: observed.headSha,
      result,
      reason,
      by_github: byGithub,
    });
    if (decision.action !== 'merge') return outcome(decision.action, decision.reason);
    try {
      const client = await this.deps.github(record.workspaceId);
      if (client === undefined) return outcome('waiting', 'no GitHub credentials are configured for this workspace');
      await client.merge(record.owner, record.repo, record.number, observed.headSha);
      return outcome('merged', null);
    } catch (error) {
      if (error instanceof GithubError && error.failure === 'refused') return outcome('refused', error.message, true);
      // Anything else (unreachable, rate limit, 5xx) is tried again at the next poll.
      const message = error instanceof Error ? error.message : 'merging failed';
      return outcome('waiting', `merge failed: ${message}`);
    }
  }
}
