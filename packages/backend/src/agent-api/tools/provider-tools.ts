import {
  AppError,
  getTaskMrAutomationTool,
  getTaskPrAutomationTool,
  type Provider,
  type ToolDefinition,
  updateTaskMrAutomationTool,
  updateTaskPrAutomationTool,
} from '@kandev/protocol';
import type { Stores } from '../../platform/store/unit-of-work';
import { parseToolArgs } from '../../platform/http/tool-args';
import type {
  ToolCallContext,
  ToolHandler,
  ToolHandlerDeps,
  ToolHandlers,
  ToolReply,
} from '../tool-calls/tool-handler';
import { requireProviderAccess } from './review-automation-access';
import {
  type AutomationUpdate,
  describeLinks,
  parseMrUpdate,
  parsePrUpdate,
  pickTargets,
  toMrAutomationItem,
  toPrAutomationItem,
} from '../../integrations/provider-automation/review-automation';
import {
  type AutomationPatch,
  providerLabel,
  type TaskMr,
  type TaskPr,
} from '../../integrations/provider-automation/review-link';

/** What differs between GitHub PRs and GitLab MRs; the handlers are the same. */
interface LinkKind<L extends TaskPr | TaskMr> {
  provider: Provider;
  /** The read tool (its empty strict schema is still checked). */
  getTool: ToolDefinition;
  /** The key of the list in structured replies. */
  listKey: 'prs' | 'mrs';
  numberOf: (link: L) => number;
  list: (stores: Stores, taskId: string) => Promise<L[]>;
  updateOptions: (stores: Stores, ids: readonly string[], patch: AutomationPatch, now: string) => Promise<number>;
  toItem: (link: L) => Record<string, unknown>;
  parseUpdate: (args: unknown) => AutomationUpdate;
}

const PR_KIND: LinkKind<TaskPr> = {
  provider: 'github',
  getTool: getTaskPrAutomationTool,
  listKey: 'prs',
  numberOf: (pr) => pr.number,
  list: (stores, taskId) => stores.taskPrs.listByTask(taskId),
  updateOptions: (stores, ids, patch, now) => stores.taskPrs.updateOptions(ids, patch, now),
  toItem: toPrAutomationItem,
  parseUpdate: parsePrUpdate,
};

const MR_KIND: LinkKind<TaskMr> = {
  provider: 'gitlab',
  getTool: getTaskMrAutomationTool,
  listKey: 'mrs',
  numberOf: (mr) => mr.iid,
  list: (stores, taskId) => stores.taskMrs.listByTask(taskId),
  updateOptions: (stores, ids, patch, now) => stores.taskMrs.updateOptions(ids, patch, now),
  toItem: toMrAutomationItem,
  parseUpdate: parseMrUpdate,
};

function render<L extends TaskPr | TaskMr>(kind: LinkKind<L>, heading: string, links: readonly L[]): ToolReply {
  const lines = describeLinks(
    kind.provider,
    links.map((link) => ({
      repositoryId: link.repositoryId,
      number: kind.numberOf(link),
      state: link.state,
      options: link.options,
    })),
  );
  return {
    text: links.length === 0 ? heading : `${heading}\n${lines}`,
    structured: { [kind.listKey]: links.map((link) => kind.toItem(link)) },
  };
}

function plural(count: number, change: string): string {
  return `${count} ${change}${count === 1 ? '' : 's'}`;
}

/** The caller task's links on still-attached repositories, with their switches. */
function createGetHandler<L extends TaskPr | TaskMr>(kind: LinkKind<L>, deps: ToolHandlerDeps): ToolHandler {
  return async (context: ToolCallContext, args: unknown) => {
    parseToolArgs(kind.getTool, args);
    const { name, change } = providerLabel(kind.provider);
    return deps.uow.transaction(async (stores) => {
      const access = await requireProviderAccess(stores, context, kind.provider);
      const links = (await kind.list(stores, access.taskId)).filter((l) => access.repositoryIds.has(l.repositoryId));
      const heading =
        links.length === 0
          ? `No ${name} ${change} is linked to this task.`
          : `${plural(links.length, `${name} ${change}`)} linked to this task:`;
      return render(kind, heading, links);
    });
  };
}

/** Changes the given switches of one identified link, or of every linked one; all in one transaction. */
function createUpdateHandler<L extends TaskPr | TaskMr>(kind: LinkKind<L>, deps: ToolHandlerDeps): ToolHandler {
  return async (context: ToolCallContext, args: unknown) => {
    const update = kind.parseUpdate(args);
    const { change } = providerLabel(kind.provider);
    const now = deps.clock().toISOString();
    return deps.uow.transaction(async (stores) => {
      const access = await requireProviderAccess(stores, context, kind.provider);
      const links = await kind.list(stores, access.taskId);
      const targets = pickTargets(kind.provider, update.target, links, kind.numberOf, access.repositoryIds);
      if (context.signal.aborted) throw new AppError('unavailable', 'The call was cancelled; nothing was changed.');
      const ids = new Set(targets.map((target) => target.id));
      await kind.updateOptions(stores, [...ids], update.patch, now);
      const updated = (await kind.list(stores, access.taskId)).filter((link) => ids.has(link.id));
      deps.logger.info(
        { taskId: access.taskId, sessionId: context.sessionId, tool: context.toolName, links: ids.size },
        'review automation updated',
      );
      return render(kind, `Updated ${plural(updated.length, change)}:`, updated);
    });
  };
}

/** GitHub PR and GitLab MR automation tools. */
export function createProviderToolHandlers(deps: ToolHandlerDeps): ToolHandlers {
  return {
    [getTaskPrAutomationTool.name]: createGetHandler(PR_KIND, deps),
    [updateTaskPrAutomationTool.name]: createUpdateHandler(PR_KIND, deps),
    [getTaskMrAutomationTool.name]: createGetHandler(MR_KIND, deps),
    [updateTaskMrAutomationTool.name]: createUpdateHandler(MR_KIND, deps),
  };
}
