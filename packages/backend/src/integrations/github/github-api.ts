import { z } from 'zod';

// The parts of GitHub REST v3 responses we read (https://docs.github.com/en/rest/users/users,
// .../pulls/pulls, .../pulls/reviews, .../checks/runs). Unknown fields pass: GitHub adds fields freely.

export const GithubUserSchema = z.object({ login: z.string().min(1), id: z.number().int() });
export type GithubUser = z.infer<typeof GithubUserSchema>;

const LoginSchema = z.object({ login: z.string().min(1) });

export const GithubPullSchema = z.object({
  number: z.number().int(),
  state: z.enum(['open', 'closed']),
  merged: z.boolean().optional(),
  merged_at: z.string().nullable().optional(),
  // null while GitHub computes it (https://docs.github.com/en/rest/guides/using-the-rest-api-to-interact-with-your-git-database#checking-mergeability-of-pull-requests).
  mergeable: z.boolean().nullable().optional(),
  mergeable_state: z.string().optional(),
  head: z.object({ sha: z.string().min(1) }),
  requested_reviewers: z.array(LoginSchema.passthrough()).default([]),
});
export type GithubPull = z.infer<typeof GithubPullSchema>;

export const GithubReviewsSchema = z.array(
  z.object({
    user: LoginSchema.passthrough().nullable(),
    state: z.string(),
    commit_id: z.string().nullable().optional(),
  }),
);

export const GithubCheckRunsSchema = z.object({
  total_count: z.number().int(),
  check_runs: z.array(z.object({ name: z.string(), status: z.string(), conclusion: z.string().nullable().optional() })),
});

export const GithubMergeSchema = z.object({ merged: z.boolean(), sha: z.string().nullable().optional() });

/** A review's verdict as the auto-fix and auto-merge rules read it (latest per reviewer). */
export interface ReviewVerdict {
  login: string;
  state: string;
  commitId: string | null;
}

export interface CheckRun {
  name: string;
  status: string;
  conclusion: string | null;
}

/** What one poll read of a PR: its state, head, mergeability, requested reviewers; reviews and checks when read. */
export interface PrObservation {
  state: 'open' | 'closed' | 'merged';
  headSha: string;
  mergeable: boolean | null;
  mergeableState: string | null;
  requestedReviewers: string[];
  /** Null when not read (no switch needs them). */
  reviews: ReviewVerdict[] | null;
  checks: CheckRun[] | null;
}

export function pullState(pull: GithubPull): PrObservation['state'] {
  if (pull.merged === true || (pull.merged_at ?? null) !== null) return 'merged';
  return pull.state;
}

/** GitHub lists reviews oldest first; a reviewer's latest verdict (comments aside) is the one that counts. */
export function latestVerdicts(reviews: z.infer<typeof GithubReviewsSchema>): ReviewVerdict[] {
  const latest = new Map<string, ReviewVerdict>();
  for (const review of reviews) {
    if (review.user === null || review.state === 'COMMENTED' || review.state === 'PENDING') continue;
    latest.set(review.user.login.toLowerCase(), {
      login: review.user.login,
      state: review.state,
      commitId: review.commit_id ?? null,
    });
  }
  return [...latest.values()];
}
