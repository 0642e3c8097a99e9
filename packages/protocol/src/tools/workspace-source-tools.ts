import { z } from 'zod';
import { ProviderSchema } from '../provider';
import { defineTool } from './tool-definition';
import { MAX_SOURCES_PER_TOOL_CALL, toolId } from './tool-inputs';

/** A git branch name as a caller gives it: no whitespace or control characters. */
export const BranchNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[^\s\p{Cc}]+$/u, 'must not contain whitespace or control characters');

/** One source to attach: a registered repository, a remote to register, or a local folder. */
const WorkspaceSourceInputSchema = z.union([
  z.object({ repository_id: toolId().describe('A repository already registered in the workspace.') }).strict(),
  z
    .object({
      remote_url: z.string().trim().min(1).max(2048).describe('Git remote URL (https or ssh) to register and attach.'),
      provider: ProviderSchema.optional().describe(
        'Hosting provider, when the URL host does not reveal it (e.g. self-hosted GitLab).',
      ),
      base_branch: BranchNameSchema.optional().describe('Branch to base work on. Default: the remote default branch.'),
    })
    .strict(),
  z
    .object({ local_path: z.string().trim().min(1).max(4096).describe('Absolute path of a local folder or checkout.') })
    .strict(),
]);

export const addWorkspaceSourcesTool = defineTool({
  name: 'add_workspace_sources_kandev',
  description:
    'Attach repositories or folders to a task while it runs. Each source is exactly one of {repository_id}, ' +
    '{remote_url, provider?, base_branch?} or {local_path}. The batch is committed as a whole and retrying the ' +
    'same batch is harmless. Attaching a GitHub or GitLab repository may add PR/MR tools to this session. Omit ' +
    'task_id for your own task.',
  input: z
    .object({
      task_id: toolId().describe('Task to attach the sources to. Omit for your own task.').optional(),
      sources: z
        .array(WorkspaceSourceInputSchema)
        .min(1)
        .max(MAX_SOURCES_PER_TOOL_CALL)
        .describe('The sources to attach, in order.'),
    })
    .strict(),
});
