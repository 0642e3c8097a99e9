import { AppError, type Provider, updateTaskMrAutomationTool, updateTaskPrAutomationTool } from '@kandev/protocol';
import { parseToolArgs } from '../../platform/http/tool-args';
import {
  AUTOMATION_OPTIONS,
  type AutomationOptions,
  type AutomationPatch,
  providerLabel,
  type TaskMr,
  type TaskPr,
} from './review-link';

// The four review-automation tools as the backend handles them: their arguments (the catalogue's strict
// schemas in @kandev/protocol) turned into an update, and the rules for choosing which links an update
// touches. Pure: no I/O.

/** One identified PR/MR of the task, or (identity omitted) every linked one, as the tool describes. */
export type LinkTarget = { kind: 'all' } | { kind: 'one'; repositoryId: string; number: number };

export interface AutomationUpdate {
  target: LinkTarget;
  patch: AutomationPatch;
}

function patchOf(input: Partial<AutomationOptions>): AutomationPatch {
  const patch: AutomationPatch = {};
  for (const option of AUTOMATION_OPTIONS) {
    const value = input[option];
    if (value !== undefined) patch[option] = value;
  }
  return patch;
}

export function parsePrUpdate(args: unknown): AutomationUpdate {
  const input = parseToolArgs(updateTaskPrAutomationTool, args);
  const target: LinkTarget =
    input.repository_id !== undefined && input.pr_number !== undefined
      ? { kind: 'one', repositoryId: input.repository_id, number: input.pr_number }
      : { kind: 'all' };
  return { target, patch: patchOf(input) };
}

export function parseMrUpdate(args: unknown): AutomationUpdate {
  const input = parseToolArgs(updateTaskMrAutomationTool, args);
  const target: LinkTarget =
    input.repository_id !== undefined && input.mr_iid !== undefined
      ? { kind: 'one', repositoryId: input.repository_id, number: input.mr_iid }
      : { kind: 'all' };
  return { target, patch: patchOf(input) };
}

/** `#12` for a PR, `!12` for an MR, as each provider writes them. */
export function changeRef(provider: Provider, number: number): string {
  return provider === 'github' ? `#${number}` : `!${number}`;
}

/**
 * The links an update touches. `links` are all of the task's links of the provider; `usable` holds
 * the ids of the task's attached repositories of that provider (read at call time). An identity
 * targets exactly that link of THIS task; without one, every link on a still-attached repository.
 */
export function pickTargets<L extends { repositoryId: string }>(
  provider: Provider,
  target: LinkTarget,
  links: readonly L[],
  numberOf: (link: L) => number,
  usable: ReadonlySet<string>,
): L[] {
  const { name, change } = providerLabel(provider);
  if (target.kind === 'all') {
    const targets = links.filter((link) => usable.has(link.repositoryId));
    if (targets.length === 0) {
      throw new AppError(
        'failed_precondition',
        `No ${name} ${change} is linked to this task; ask an operator to link one first.`,
      );
    }
    return targets;
  }
  const ref = `${change} ${changeRef(provider, target.number)} of repository ${target.repositoryId}`;
  const found = links.find((link) => link.repositoryId === target.repositoryId && numberOf(link) === target.number);
  if (found === undefined) {
    throw new AppError('not_found', `No ${ref} is linked to this task; read the linked ones with the get tool.`);
  }
  if (!usable.has(found.repositoryId)) {
    throw new AppError('failed_precondition', `The repository of ${ref} is no longer attached to this task.`);
  }
  return [found];
}

/** A PR as the tools show it: the identity the update tool takes, and the switches by their input names. */
export function toPrAutomationItem(pr: TaskPr): Record<string, unknown> {
  return { repository_id: pr.repositoryId, pr_number: pr.number, state: pr.state, ...pr.options };
}

export function toMrAutomationItem(mr: TaskMr): Record<string, unknown> {
  return {
    repository_id: mr.repositoryId,
    mr_iid: mr.iid,
    project_path: mr.projectPath,
    state: mr.state,
    ...mr.options,
  };
}

/** One line per link for the model: `- repository r1 #12 (open): auto_fix_enabled=false, ...`. */
export function describeLinks(
  provider: Provider,
  links: readonly { repositoryId: string; number: number; state: string; options: AutomationOptions }[],
): string {
  return links
    .map((link) => {
      const switchesText = AUTOMATION_OPTIONS.map((option) => `${option}=${String(link.options[option])}`).join(', ');
      return `- repository ${link.repositoryId} ${changeRef(provider, link.number)} (${link.state}): ${switchesText}`;
    })
    .join('\n');
}
