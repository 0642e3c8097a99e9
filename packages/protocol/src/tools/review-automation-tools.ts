import { z } from 'zod';
import { defineTool } from './tool-definition';
import { toolId } from './tool-inputs';

// Provider-specific review automation. GitHub and GitLab expose different features, so each keeps its
// own pair of tools instead of one generic contract.

const switches = {
  auto_fix_enabled: z.boolean().optional().describe('Let an agent fix failing CI automatically.'),
  auto_merge_enabled: z.boolean().optional().describe('Merge automatically once all checks pass.'),
  prompt_on_review_requested: z.boolean().optional().describe('Prompt this task when a review is requested.'),
  prompt_on_merged: z.boolean().optional().describe('Prompt this task once when the change is merged.'),
  prompt_on_closed: z.boolean().optional().describe('Prompt this task once when the change is closed unmerged.'),
};
/** The automation switches an update may set; each omitted one stays as it is. */
export const AUTOMATION_SWITCHES = Object.keys(switches) as (keyof typeof switches)[];
const repositoryId = toolId().optional();
const reviewNumber = z.number().int().min(1).optional();

const bothOrNeither =
  <K extends string>(a: K, b: K) =>
  (value: Partial<Record<K, unknown>>) =>
    (value[a] === undefined) === (value[b] === undefined);
const hasSwitch = (value: Partial<Record<string, unknown>>) =>
  AUTOMATION_SWITCHES.some((option) => value[option] !== undefined);
const NO_SWITCH = { message: `set at least one of ${AUTOMATION_SWITCHES.join(', ')}` };

export const getTaskPrAutomationTool = defineTool({
  name: 'get_task_pr_automation_kandev',
  description:
    "Read your task's GitHub pull request automation: for each linked PR, auto-fix, auto-merge and the " +
    'review/merge/close notification switches.',
  readOnly: true,
  input: z.object({}).strict(),
});

export const updateTaskPrAutomationTool = defineTool({
  name: 'update_task_pr_automation_kandev',
  description:
    "Change your task's GitHub pull request automation. Target one linked PR with repository_id and pr_number, " +
    'or omit both to apply the change to every linked PR. Set at least one switch; those you omit stay as they are.',
  input: z
    .object({
      repository_id: repositoryId.describe('Repository of the PR to target (pair with pr_number).'),
      pr_number: reviewNumber.describe('Number of the PR to target (pair with repository_id).'),
      ...switches,
    })
    .strict()
    .refine(bothOrNeither('repository_id', 'pr_number'), { message: 'pass repository_id and pr_number together' })
    .refine(hasSwitch, NO_SWITCH),
});

export const getTaskMrAutomationTool = defineTool({
  name: 'get_task_mr_automation_kandev',
  description:
    "Read your task's GitLab merge request automation: for each linked MR, auto-fix, auto-merge and the " +
    'review/merge/close notification switches.',
  readOnly: true,
  input: z.object({}).strict(),
});

export const updateTaskMrAutomationTool = defineTool({
  name: 'update_task_mr_automation_kandev',
  description:
    "Change your task's GitLab merge request automation. Target one linked MR with repository_id and mr_iid, " +
    'or omit both to apply the change to every linked MR. Set at least one switch; those you omit stay as they are.',
  input: z
    .object({
      repository_id: repositoryId.describe('Repository of the MR to target (pair with mr_iid).'),
      mr_iid: reviewNumber.describe('IID of the MR to target (pair with repository_id).'),
      ...switches,
    })
    .strict()
    .refine(bothOrNeither('repository_id', 'mr_iid'), { message: 'pass repository_id and mr_iid together' })
    .refine(hasSwitch, NO_SWITCH),
});
