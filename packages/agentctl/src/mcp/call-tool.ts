import { isAppError, type LaunchConfig } from '@kandev/protocol';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../logger';
import type { ToolSet } from '../tools/tool-set-cache';
import type { ForwardOptions, ToolCallForwarder, ToolCallResult } from './tool-call-forwarder';

/** What a connection's handlers read on every request: the session's identity and CURRENT tool set. */
export interface ToolBinding {
  readonly sessionId: string;
  readonly taskId: string;
  /** The CURRENT config: workspace and revision travel with each call. */
  readonly config: Pick<LaunchConfig, 'workspaceId' | 'revision'>;
  readonly toolSet: ToolSet;
}

export interface CallToolParams {
  name: string;
  arguments?: Record<string, unknown>;
}

function errorResult(text: string): ToolCallResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * tools/call: the tool must be in the session's current list (a stale client gets a protocol error and
 * nothing happens), arguments must match its strict schema, then the call is forwarded with the
 * session's bound identity. Failures the model can act on come back as `isError` results.
 */
export async function callTool(
  binding: ToolBinding,
  forwarder: ToolCallForwarder,
  log: Logger,
  params: CallToolParams,
  options: ForwardOptions = {},
): Promise<CallToolResult> {
  const tool = binding.toolSet.find(params.name);
  if (tool === undefined) {
    throw new McpError(ErrorCode.InvalidParams, `unknown or unavailable tool: ${params.name}`);
  }
  const parsed = tool.input.safeParse(params.arguments ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
    const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    throw new McpError(ErrorCode.InvalidParams, `invalid arguments for ${tool.name}: ${summary}`, { issues });
  }
  const { workspaceId, revision } = binding.config;
  const { sessionId, taskId } = binding;
  const call = { sessionId, taskId, workspaceId, revision, tool: tool.name, arguments: parsed.data };
  try {
    return await forwarder.forward(call, options);
  } catch (err) {
    if (isAppError(err)) return errorResult(err.message);
    log.error({ err, tool: tool.name, sessionId: binding.sessionId }, 'tool call failed');
    return errorResult(`${tool.name} failed inside agentctl; nothing was confirmed. Retry later.`);
  }
}
