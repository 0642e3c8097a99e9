import { z } from 'zod';
import { AppError, type Provider } from '@kandev/protocol';
import type { Repository } from '../../catalogue/repositories/repository';
import { IdSchema } from '../../platform/store/id-schema';

// A task's links to GitHub pull requests and GitLab merge requests, with their automation switches.
// Pure: types, schemas, views and the rules for creating a link (no I/O).

/** The switches, named as the MCP tools name them (REST shows the same names). */
export const AUTOMATION_OPTIONS = [
  'auto_fix_enabled',
  'auto_merge_enabled',
  'prompt_on_review_requested',
  'prompt_on_merged',
  'prompt_on_closed',
] as const;
export type AutomationOption = (typeof AUTOMATION_OPTIONS)[number];
export type AutomationOptions = Record<AutomationOption, boolean>;
export type AutomationPatch = Partial<AutomationOptions>;

export const DEFAULT_AUTOMATION: Readonly<AutomationOptions> = Object.freeze({
  auto_fix_enabled: false,
  auto_merge_enabled: false,
  prompt_on_review_requested: false,
  prompt_on_merged: false,
  prompt_on_closed: false,
});

export const PR_STATES = ['open', 'closed', 'merged'] as const;
export type PrState = (typeof PR_STATES)[number];
export const PrStateSchema = z.enum(PR_STATES);

/** GitLab's own vocabulary (`opened`, not `open`). */
export const MR_STATES = ['opened', 'closed', 'merged', 'locked'] as const;
export type MrState = (typeof MR_STATES)[number];
export const MrStateSchema = z.enum(MR_STATES);

interface ReviewLinkBase {
  id: string;
  taskId: string;
  repositoryId: string;
  headSha: string | null;
  options: AutomationOptions;
  createdAt: string;
  updatedAt: string;
}

export interface TaskPr extends ReviewLinkBase {
  number: number;
  state: PrState;
}

export interface TaskMr extends ReviewLinkBase {
  projectPath: string;
  iid: number;
  state: MrState;
  /** The GitLab lifecycle rules' checkpoint (mr-lifecycle/); null until the MR is first evaluated. */
  lifecycleCheckpoint: Record<string, unknown> | null;
}

/** PR numbers and MR IIDs: positive, and within a 32-bit integer column. */
export const ReviewNumberSchema = z.number().int().min(1).max(2_147_483_647);

/** `group/subgroup/project`: two or more GitLab path segments. */
export const ProjectPathSchema = z
  .string()
  .trim()
  .max(1024)
  .regex(/^[\w.][\w.-]*(\/[\w.][\w.-]*)+$/, 'expected a GitLab project path like group/project');

export const LinkPrBodySchema = z.object({ repository_id: IdSchema, number: ReviewNumberSchema }).strict();
export type LinkPrBody = z.infer<typeof LinkPrBodySchema>;

export const LinkMrBodySchema = z
  .object({ repository_id: IdSchema, project_path: ProjectPathSchema, iid: ReviewNumberSchema })
  .strict();
export type LinkMrBody = z.infer<typeof LinkMrBodySchema>;

const PROVIDER_LABEL: Record<Provider, { name: string; change: string }> = {
  github: { name: 'GitHub', change: 'pull request' },
  gitlab: { name: 'GitLab', change: 'merge request' },
};

export function providerLabel(provider: Provider): { name: string; change: string } {
  return PROVIDER_LABEL[provider];
}

/**
 * A PR/MR can be linked only through a repository of the task, of the link's provider.
 * `attached` is whether the repository is attached to the task now (read in the same transaction).
 */
export function assertLinkableRepository(
  provider: Provider,
  taskId: string,
  repositoryId: string,
  repository: Repository | undefined,
  attached: boolean,
): void {
  if (repository === undefined) throw new AppError('not_found', `repository ${repositoryId} not found`);
  if (!attached) {
    throw new AppError(
      'failed_precondition',
      `repository ${repositoryId} is not attached to task ${taskId}; attach it as a workspace source first`,
    );
  }
  if (repository.provider !== provider) {
    const { name, change } = providerLabel(provider);
    const actual = repository.provider === null ? 'has no provider' : `is a ${repository.provider} repository`;
    throw new AppError('invalid_argument', `repository ${repositoryId} ${actual}; a ${change} needs a ${name} one`);
  }
}

const AutomationViewSchema = z
  .object(
    Object.fromEntries(AUTOMATION_OPTIONS.map((option) => [option, z.boolean()])) as Record<
      AutomationOption,
      z.ZodBoolean
    >,
  )
  .strict()
  .describe("the link's automation switches");

export const TaskPrViewSchema = z
  .object({
    id: z.string(),
    task_id: z.string(),
    repository_id: z.string(),
    number: z.number().int(),
    state: PrStateSchema,
    head_sha: z.string().nullable(),
    automation: AutomationViewSchema,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .strict()
  .meta({ id: 'PrLink' });
export type TaskPrView = z.output<typeof TaskPrViewSchema>;

export const TaskMrViewSchema = z
  .object({
    id: z.string(),
    task_id: z.string(),
    repository_id: z.string(),
    project_path: z.string(),
    iid: z.number().int(),
    state: MrStateSchema,
    head_sha: z.string().nullable(),
    automation: AutomationViewSchema,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .strict()
  .meta({ id: 'MrLink' });
export type TaskMrView = z.output<typeof TaskMrViewSchema>;

export function toTaskPrView(pr: TaskPr): TaskPrView {
  return {
    id: pr.id,
    task_id: pr.taskId,
    repository_id: pr.repositoryId,
    number: pr.number,
    state: pr.state,
    head_sha: pr.headSha,
    automation: { ...pr.options },
    created_at: pr.createdAt,
    updated_at: pr.updatedAt,
  };
}

export function toTaskMrView(mr: TaskMr): TaskMrView {
  return {
    id: mr.id,
    task_id: mr.taskId,
    repository_id: mr.repositoryId,
    project_path: mr.projectPath,
    iid: mr.iid,
    state: mr.state,
    head_sha: mr.headSha,
    automation: { ...mr.options },
    created_at: mr.createdAt,
    updated_at: mr.updatedAt,
  };
}
