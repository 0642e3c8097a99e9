import { addWorkspaceSourcesTool } from '@kandev/protocol';
import { assertNotCancelled, loadTarget, reply } from '../tool-calls/tool-scope';
import { assertWritable } from '../../catalogue/tasks/task';
import { parseToolArgs } from '../../platform/http/tool-args';
import type { ToolCallContext, ToolHandlerDeps, ToolHandlers, ToolReply } from '../tool-calls/tool-handler';
import {
  type SourceBatchView,
  toAddedSourceView,
  toRefreshView,
} from '../../runtime/workspace-sources/workspace-source';

// add_workspace_sources_kandev: the same batch path as REST (WorkspaceSourceService.add), so a batch
// is committed as a whole and followed by exactly one provider recomputation and refresh.

const ADD_WORKSPACE_SOURCES = addWorkspaceSourcesTool.name;

async function addWorkspaceSources(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown) {
  const input = parseToolArgs(addWorkspaceSourcesTool, args);
  const request = { tool: ADD_WORKSPACE_SOURCES, scope: 'own_or_child' as const, taskId: input.task_id };
  const { target } = await loadTarget(deps.uow.read, context, request);
  assertWritable(target);
  assertNotCancelled(context);
  const batch = await deps.workspaceSources.add(target.id, { sources: input.sources });
  const view: SourceBatchView = {
    task_id: batch.taskId,
    batch_id: batch.batchId,
    added: batch.added.map((a) => toAddedSourceView(a.repository, a.baseBranch)),
    providers: batch.providers,
    refresh: toRefreshView(batch.refresh),
  };
  return reply(describeBatch(view), { ...view });
}

function describeBatch(view: SourceBatchView): string {
  const providers = view.providers.length === 0 ? 'none' : view.providers.join(', ');
  const added =
    view.added.length === 0
      ? `Nothing new to attach to task ${view.task_id}`
      : `Attached ${view.added.length} source(s) to task ${view.task_id}`;
  return `${added}; providers: ${providers}; live sessions refresh: ${view.refresh.status}.`;
}

export function createWorkspaceSourceToolHandlers(deps: ToolHandlerDeps): ToolHandlers {
  return { [ADD_WORKSPACE_SOURCES]: (context, args): Promise<ToolReply> => addWorkspaceSources(deps, context, args) };
}
