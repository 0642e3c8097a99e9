import { z } from 'zod';
import { MrStateSchema } from '../provider-automation/review-link';

// The parts of GitLab REST v4 responses we read (https://docs.gitlab.com/api/merge_requests/,
// https://docs.gitlab.com/api/users/). Unknown fields pass: GitLab adds fields freely.

export const GitlabUserSchema = z.object({ id: z.number().int(), username: z.string().min(1) });
export type GitlabUser = z.infer<typeof GitlabUserSchema>;

export const GitlabReviewerSchema = z.object({
  id: z.number().int(),
  username: z.string().min(1),
  name: z.string().optional(),
  state: z.string().optional(),
});

export const GitlabMergeRequestSchema = z.object({
  iid: z.number().int(),
  state: MrStateSchema,
  sha: z.string().nullable(),
  updated_at: z.string().optional(),
  reviewers: z.array(GitlabReviewerSchema).default([]),
});
export type GitlabMergeRequest = z.infer<typeof GitlabMergeRequestSchema>;

/** What one read of an MR observed: its state, head and the usernames it requests reviews from. */
export interface MrObservation {
  state: GitlabMergeRequest['state'];
  headSha: string | null;
  reviewers: string[];
}

export function toObservation(mr: GitlabMergeRequest): MrObservation {
  return { state: mr.state, headSha: mr.sha, reviewers: mr.reviewers.map((r) => r.username) };
}
