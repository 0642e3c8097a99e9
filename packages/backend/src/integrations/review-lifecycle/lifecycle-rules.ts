import { z } from 'zod';
import { type MrState, MrStateSchema } from '../provider-automation/review-link';

// The GitLab MR lifecycle rules. Pure: from the stored checkpoint, one observation and the switches,
// the prompts to queue and the next checkpoint. See docs/gitlab.md#gitlab-mr-lifecycle.

export const LIFECYCLE_EVENTS = ['review_requested', 'merged', 'closed'] as const;
export type LifecycleEvent = (typeof LIFECYCLE_EVENTS)[number];

/**
 * What the evaluator last saw of the MR. `review_requested` is null until a reviewer list was read
 * for the authenticated user (the baseline); `seq` counts prompted transitions, so each one has its
 * own coalescing key and a repeat of the same transition finds the key taken.
 */
export const CheckpointSchema = z.object({
  state: MrStateSchema,
  review_requested: z.boolean().nullable(),
  seq: z.number().int().min(0),
});
export type Checkpoint = z.infer<typeof CheckpointSchema>;

export interface PromptSwitches {
  prompt_on_review_requested: boolean;
  prompt_on_merged: boolean;
  prompt_on_closed: boolean;
}

/** Why review-requested evaluation did not run (shown on the link). */
export type ReviewSkip = 'no_authenticated_username' | 'reviewers_unavailable';

export interface EvaluationInput {
  checkpoint: Checkpoint | null;
  state: MrState;
  /** The usernames GitLab requests reviews from, or null when nobody could read them. */
  reviewers: readonly string[] | null;
  /** The workspace credential's persisted GitLab username; null skips review-requested evaluation. */
  username: string | null;
  switches: PromptSwitches;
}

export interface LifecyclePrompt {
  event: LifecycleEvent;
  seq: number;
}

export interface Evaluation {
  checkpoint: Checkpoint;
  prompts: LifecyclePrompt[];
  /** 'baseline': first observation; nothing prompted, the checkpoint starts here. */
  result: 'baseline' | 'prompted' | 'unchanged';
  reviewSkipped: ReviewSkip | null;
}

const STATE_EVENTS: Partial<Record<MrState, { event: LifecycleEvent; switch: keyof PromptSwitches }>> = {
  merged: { event: 'merged', switch: 'prompt_on_merged' },
  closed: { event: 'closed', switch: 'prompt_on_closed' },
};

/** Whether the user is among the reviewers (GitLab usernames are case-insensitive). */
export function isReviewRequested(reviewers: readonly string[], username: string): boolean {
  const wanted = username.toLowerCase();
  return reviewers.some((reviewer) => reviewer.toLowerCase() === wanted);
}

/**
 * One observation against the checkpoint. merged/closed prompt on the transition into the state;
 * review_requested prompts on a not-requested -> requested edge for the user, only while the MR is
 * open; the first observation only sets the baseline. A switch that is off still moves the
 * checkpoint, so turning it on later does not replay an old transition.
 */
export function evaluate(input: EvaluationInput): Evaluation {
  const previous = input.checkpoint;
  const reviewSkipped = reviewSkipOf(input);
  const requested =
    reviewSkipped === null && input.state === 'opened' && input.reviewers !== null && input.username !== null
      ? isReviewRequested(input.reviewers, input.username)
      : null;
  if (previous === null) {
    return {
      checkpoint: { state: input.state, review_requested: requested, seq: 0 },
      prompts: [],
      result: 'baseline',
      reviewSkipped,
    };
  }
  const prompts: LifecyclePrompt[] = [];
  let seq = previous.seq;
  const stateEvent = STATE_EVENTS[input.state];
  if (stateEvent !== undefined && previous.state !== input.state && input.switches[stateEvent.switch]) {
    seq += 1;
    prompts.push({ event: stateEvent.event, seq });
  }
  let reviewRequested = previous.review_requested;
  if (requested !== null) {
    if (previous.review_requested === false && requested && input.switches.prompt_on_review_requested) {
      seq += 1;
      prompts.push({ event: 'review_requested', seq });
    }
    reviewRequested = requested;
  }
  return {
    checkpoint: { state: input.state, review_requested: reviewRequested, seq },
    prompts,
    result: prompts.length > 0 ? 'prompted' : 'unchanged',
    reviewSkipped,
  };
}

function reviewSkipOf(input: EvaluationInput): ReviewSkip | null {
  if (!input.switches.prompt_on_review_requested || input.state !== 'opened') return null;
  if (input.username === null) return 'no_authenticated_username';
  if (input.reviewers === null) return 'reviewers_unavailable';
  return null;
}

/** Whether evaluating needs a reviewer list it does not have (the strict fallback reads the MR once). */
export function needsReviewers(state: MrState, username: string | null, switches: PromptSwitches): boolean {
  return switches.prompt_on_review_requested && state === 'opened' && username !== null;
}

/** Which kind of link a key is for: each kind has its own key space. */
export type LinkKind = 'gitlab-mr' | 'github-pr';

/** The queue's coalescing key: one prompt per link, event and transition number, ever. */
export function coalescingKey(linkId: string, prompt: LifecyclePrompt, kind: LinkKind = 'gitlab-mr'): string {
  return `${kind}:${linkId}:${prompt.event}:${prompt.seq}`;
}

/** How a prompt names the provider and the change (`GitLab`, `merge request`, `group/project!5`). */
export interface ChangeRef {
  provider: string;
  change: string;
  ref: string;
}

/** The text the task's agent gets for a lifecycle transition. */
export function transitionText(event: LifecycleEvent, target: ChangeRef, username: string | null): string {
  const { provider, change, ref } = target;
  switch (event) {
    case 'review_requested':
      return `${provider}: your review was requested on ${change} ${ref} (as ${username ?? 'the workspace user'}). Review it.`;
    case 'merged':
      return `${provider}: ${change} ${ref} was merged. Wrap up the work that depended on it.`;
    case 'closed':
      return `${provider}: ${change} ${ref} was closed without merging. Decide what to do with the work.`;
  }
}

/** The text the task's agent gets for an MR transition. */
export function promptText(event: LifecycleEvent, projectPath: string, iid: number, username: string | null): string {
  return transitionText(event, { provider: 'GitLab', change: 'merge request', ref: `${projectPath}!${iid}` }, username);
}
