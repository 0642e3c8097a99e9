import { z } from 'zod';
import type { CheckRun, PrObservation, ReviewVerdict } from './github-api';
import type { MrState, PrState } from '../provider-automation/review-link';

// The GitHub-only rules of the PR lifecycle, pure. The transition rules (review requested, merged,
// closed) are the MR ones (integrations/review-lifecycle/lifecycle-rules.ts), fed with `rulesState`; these add
// auto-fix (one prompt per head commit) and auto-merge (merge, wait, or a refusal shown on the link).

/** The transition rules speak GitLab's vocabulary: a PR's `open` is their `opened`. */
export function rulesState(state: PrState): MrState {
  return state === 'open' ? 'opened' : state;
}

/** Conclusions that fail a check run (https://docs.github.com/en/rest/checks/runs). */
const FAILED = new Set(['failure', 'timed_out', 'cancelled', 'action_required', 'startup_failure', 'stale']);
/** Conclusions that let a merge go ahead. */
const PASSED = new Set(['success', 'neutral', 'skipped']);

export function failedChecks(checks: readonly CheckRun[]): string[] {
  return checks.filter((c) => c.status === 'completed' && FAILED.has(c.conclusion ?? '')).map((c) => c.name);
}

/** Reviewers whose latest verdict requests changes to this very commit (an older commit's is stale). */
export function changesRequested(reviews: readonly ReviewVerdict[], headSha: string): string[] {
  return reviews.filter((r) => r.state === 'CHANGES_REQUESTED' && r.commitId === headSha).map((r) => r.login);
}

/** Why the head commit needs a fix, or [] when it does not (or the PR is no longer open). */
export function autoFixReasons(observed: PrObservation): string[] {
  if (observed.state !== 'open') return [];
  const reasons: string[] = [];
  const failed = failedChecks(observed.checks ?? []);
  if (failed.length > 0) reasons.push(`check runs failed: ${failed.join(', ')}`);
  const requesters = changesRequested(observed.reviews ?? [], observed.headSha);
  if (requesters.length > 0) reasons.push(`changes requested by ${requesters.join(', ')}`);
  return reasons;
}

/** One fix prompt per link and head commit, ever: a new commit may get another. */
export function autoFixKey(linkId: string, headSha: string): string {
  return `github-pr:${linkId}:auto_fix:${headSha}`;
}

export function autoFixText(ref: string, headSha: string, reasons: readonly string[]): string {
  return `GitHub: pull request ${ref} needs a fix at ${headSha.slice(0, 12)} (${reasons.join('; ')}). Fix it and push.`;
}

/** The last auto-merge outcome, shown on the link. */
export const MergeOutcomeSchema = z.object({
  at: z.string(),
  head_sha: z.string(),
  result: z.enum(['merged', 'refused', 'waiting']),
  reason: z.string().nullable(),
  /** A refusal GitHub itself answered (405/409/422): not retried for the same head commit. */
  by_github: z.boolean(),
});
export type MergeOutcome = z.infer<typeof MergeOutcomeSchema>;

export type MergeDecision =
  { action: 'none' } | { action: 'merge' } | { action: 'waiting' | 'refused'; reason: string };

/**
 * Auto-merge: merge an open PR whose every check run completed and passed, with no changes requested
 * on its head, once GitHub reports it mergeable. `mergeable: null` (GitHub still computing) waits;
 * `false` is a refusal. A refusal GitHub answered for this head is not tried again.
 */
export function mergeDecision(observed: PrObservation, previous: MergeOutcome | null): MergeDecision {
  if (observed.state !== 'open' || observed.checks === null) return { action: 'none' };
  if (previous?.by_github === true && previous.result === 'refused' && previous.head_sha === observed.headSha)
    return { action: 'none' };
  const pending = observed.checks.filter((c) => c.status !== 'completed').map((c) => c.name);
  if (pending.length > 0) return { action: 'waiting', reason: `check runs pending: ${pending.join(', ')}` };
  const notPassed = observed.checks.filter((c) => !PASSED.has(c.conclusion ?? '')).map((c) => c.name);
  if (notPassed.length > 0) return { action: 'waiting', reason: `check runs did not pass: ${notPassed.join(', ')}` };
  const requesters = changesRequested(observed.reviews ?? [], observed.headSha);
  if (requesters.length > 0) return { action: 'waiting', reason: `changes requested by ${requesters.join(', ')}` };
  if (observed.mergeable === null) return { action: 'waiting', reason: 'GitHub is still computing mergeability' };
  if (!observed.mergeable)
    return { action: 'refused', reason: `not mergeable (mergeable_state: ${observed.mergeableState ?? 'unknown'})` };
  return { action: 'merge' };
}

/** Whether a new outcome is news (for the event log): anything but the same result, reason and head. */
export function mergeOutcomeChanged(previous: MergeOutcome | null, next: MergeOutcome): boolean {
  return (
    previous === null ||
    previous.result !== next.result ||
    previous.reason !== next.reason ||
    previous.head_sha !== next.head_sha
  );
}
