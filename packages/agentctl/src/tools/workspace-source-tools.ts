import { PROVIDERS } from '@kandev/protocol';
import { z } from 'zod';
import { defineTool } from './tool-definition';

const id = (what: string) => z.string().min(1).describe(what);

/** One source to attach: a registered repository, a remote to register, or a local folder. */
const WorkspaceSourceSchema = z.union([
  z.object({ repository_id: id('A repository already registered in the workspace.') }).strict(),
  z
    .object({
      remote_url: id('Git remote URL (https or ssh) to register and attach.'),
      provider: z
        .enum(PROVIDERS)
        .optional()
        .describe('Hosting provider, when the URL host does not reveal it (e.g. self-hosted GitLab).'),
      base_branch: z.string().min(1).optional().describe('Branch to base work on. Default: the remote default branch.'),
    })
    .strict(),
  z.object({ local_path: id('Absolute path of a local folder or checkout.') }).strict(),
]);

export const addWorkspaceSources = defineTool({
  name: 'add_workspace_sources_kandev',
  description:
    'Attach repositories or folders to a task while it runs. Each source is exactly one of {repository_id}, ' +
    '{remote_url, provider?, base_branch?} or {local_path}. The batch is committed as a whole and retrying the ' +
    'same batch is harmless. Attaching a GitHub or GitLab repository may add PR/MR tools to this session. Omit ' +
    'task_id for your own task.',
  input: z
    .object({
      task_id: id('Task to attach the sources to. Omit for your own task.').optional(),
      sources: z.array(WorkspaceSourceSchema).min(1).max(20).describe('The sources to attach, in order.'),
    })
    .strict(),
});
