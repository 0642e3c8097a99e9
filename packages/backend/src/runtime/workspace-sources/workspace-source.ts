import { z } from 'zod';
import { AppError, ProviderSchema } from '@kandev/protocol';
import {
  LocalPathSchema,
  ProviderInputSchema,
  RemoteUrlSchema,
  type Repository,
  RepositoryViewSchema,
  toRepositoryView,
} from '../../catalogue/repositories/repository';
import { type RefreshSummary, SESSION_REFRESH_STATUSES } from '../provider-refresh/provider-refresh';
import { IdSchema } from '../../platform/store/id-schema';
import type { TaskAttachment } from '../../catalogue/tasks/task';

// Pure: the workspace-source batch schemas, the batch rule (dedupe against what the task has), views.

/** A git branch name as a caller gives it: no whitespace or control characters. */
const BranchSchema = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[^\s\p{Cc}]+$/u, 'must not contain whitespace or control characters');

/** One source: an already registered repository, a remote URL, or a local path. */
export const WorkspaceSourceSchema = z.union([
  z.object({ repository_id: IdSchema }).strict(),
  z
    .object({
      remote_url: RemoteUrlSchema,
      provider: ProviderInputSchema.optional(),
      base_branch: BranchSchema.optional(),
    })
    .strict(),
  z.object({ local_path: LocalPathSchema }).strict(),
]);
export type WorkspaceSource = z.infer<typeof WorkspaceSourceSchema>;

export const MAX_SOURCES_PER_BATCH = 100;

export const AddWorkspaceSourcesBodySchema = z
  .object({ sources: z.array(WorkspaceSourceSchema).min(1).max(MAX_SOURCES_PER_BATCH) })
  .strict();
export type AddWorkspaceSourcesBody = z.infer<typeof AddWorkspaceSourcesBodySchema>;

/** `?wait=`: what the answer of a change waits for (docs/rest-api.md: dispatched by default). */
export const WorkspaceSourceQuerySchema = z
  .object({ wait: z.enum(['dispatched', 'applied']).default('dispatched') })
  .strict();

export const WorkspaceSourceParamsSchema = z.object({ id: IdSchema, repository_id: IdSchema }).strict();

/**
 * The batch rule. A source that names a repository the task already has is an exact duplicate and is
 * dropped when it asks for no base branch or the same one; asking for another base branch is a
 * conflict (change it by removing the source first). Within the batch, the same rule merges repeats.
 * Returns what to attach, in request order; throws without side effects.
 */
export function planBatch(existing: readonly TaskAttachment[], requested: readonly TaskAttachment[]): TaskAttachment[] {
  const held = new Map(existing.map((a) => [a.repositoryId, a.baseBranch] as const));
  const added = new Map<string, TaskAttachment>();
  for (const request of requested) {
    if (held.has(request.repositoryId)) {
      const current = held.get(request.repositoryId) ?? null;
      if (request.baseBranch === null || request.baseBranch === current) continue;
      throw new AppError('failed_precondition', 'the repository is already attached with another base branch', {
        repository_id: request.repositoryId,
        base_branch: current,
      });
    }
    const earlier = added.get(request.repositoryId);
    if (earlier === undefined) added.set(request.repositoryId, { ...request });
    else if (earlier.baseBranch === null) earlier.baseBranch = request.baseBranch;
    else if (request.baseBranch !== null && request.baseBranch !== earlier.baseBranch) {
      throw new AppError('invalid_argument', 'the batch names one repository with two base branches', {
        repository_id: request.repositoryId,
      });
    }
  }
  return [...added.values()];
}

// The views REST sends; the view functions return their output types, so the document cannot drift.
const RefreshViewSchema = z
  .object({
    status: z.enum([...SESSION_REFRESH_STATUSES, 'partial']),
    sessions: z.array(
      z
        .object({
          session_id: z.string(),
          status: z.enum(SESSION_REFRESH_STATUSES),
          revision: z.number().int(),
          reason: z.string().optional(),
        })
        .strict(),
    ),
  })
  .strict()
  .describe("each changed live session's update: `dispatched` or, with `?wait=applied`, what agentctl answered");
export type RefreshView = z.output<typeof RefreshViewSchema>;

const AddedSourceViewSchema = RepositoryViewSchema.extend({ base_branch: z.string().nullable() }).strict();
export type AddedSourceView = z.output<typeof AddedSourceViewSchema>;

export const SourceBatchViewSchema = z
  .object({
    task_id: z.string(),
    batch_id: z.string().nullable().describe('null when the batch added nothing (and so wrote nothing)'),
    added: z.array(AddedSourceViewSchema),
    providers: z.array(ProviderSchema),
    refresh: RefreshViewSchema,
  })
  .strict()
  .meta({ id: 'SourceBatch' });
export type SourceBatchView = z.output<typeof SourceBatchViewSchema>;

export const SourceRemovalViewSchema = z
  .object({
    task_id: z.string(),
    removed: RepositoryViewSchema,
    providers: z.array(ProviderSchema),
    refresh: RefreshViewSchema,
  })
  .strict()
  .meta({ id: 'SourceRemoval' });
export type SourceRemovalView = z.output<typeof SourceRemovalViewSchema>;

export function toRefreshView(summary: RefreshSummary): RefreshView {
  return {
    status: summary.status,
    sessions: summary.sessions.map((s) => ({
      session_id: s.sessionId,
      status: s.status,
      revision: s.revision,
      ...(s.reason === undefined ? {} : { reason: s.reason }),
    })),
  };
}

export function toAddedSourceView(repository: Repository, baseBranch: string | null): AddedSourceView {
  return { ...toRepositoryView(repository), base_branch: baseBranch };
}
