import { ERROR_CODES, type ErrorCode, type WireToolCallRequest, type WireToolCallResultOutput } from '@kandev/protocol';
import type { ToolCall, ToolCallResult } from '../mcp/tool-call-forwarder';

// Pure mappers between a forwarded call and the Attach wire messages, and the texts the agent sees
// when the channel (not the tool) fails. Every text is one line and says what to do next.

/** The request the backend receives: identity from the session binding, the agent's arguments as given. */
export function toolCallToWire(callId: string, call: ToolCall): WireToolCallRequest {
  return {
    call_id: callId,
    session_id: call.sessionId,
    task_id: call.taskId,
    workspace_id: call.workspaceId,
    tool_name: call.tool,
    arguments_json: JSON.stringify(call.arguments),
    revision: String(call.revision),
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function failure(text: string, error: Record<string, unknown>): ToolCallResult {
  return { isError: true, content: [{ type: 'text', text }], structuredContent: { error } };
}

const KNOWN_CODES = new Set<string>(ERROR_CODES);

function errorCode(code: string): ErrorCode {
  return KNOWN_CODES.has(code) ? (code as ErrorCode) : 'internal';
}

/** A structured JSON object from the backend, or undefined when absent or not a JSON object. */
function parseStructured(json: string): Record<string, unknown> | undefined {
  if (json.length === 0) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The backend's answer as an MCP tool result: ToolOutput as given, ToolError as a one-line isError. */
export function toolResultFromWire(result: WireToolCallResultOutput, tool: string): ToolCallResult {
  if (result.outcome === 'output' && result.output) {
    const { text, structured_json: structuredJson, is_error: isError } = result.output;
    const structured = parseStructured(structuredJson);
    const shown = text.length > 0 || structured === undefined ? text : JSON.stringify(structured);
    return {
      content: [{ type: 'text', text: shown }],
      ...(structured !== undefined ? { structuredContent: structured } : {}),
      ...(isError ? { isError: true } : {}),
    };
  }
  if (result.outcome === 'error' && result.error) {
    const code = errorCode(result.error.code);
    const message = oneLine(result.error.message) || 'no reason given';
    return failure(`${tool} failed (${code}): ${message}`, { code, message, tool });
  }
  return failure(`${tool} failed (internal): the backend sent an empty result; its outcome is unknown.`, {
    code: 'internal',
    reason: 'empty_result',
    tool,
  });
}

/** No progress and no result for a whole inactivity window. */
export function timedOutResult(tool: string, timeoutMs: number): ToolCallResult {
  return failure(
    `The backend did not answer within ${timeoutMs} ms, so the outcome of ${tool} is unknown. ` +
      'Check the current state before retrying.',
    { code: 'deadline_exceeded', reason: 'backend_timeout', tool, timeout_ms: timeoutMs },
  );
}

/** The Attach stream the call went out on ended (backend gone, or replaced by a newer Attach). */
export function channelLostResult(tool: string): ToolCallResult {
  return failure(
    `The backend connection dropped while ${tool} was running, so its outcome is unknown. ` +
      'Check the current state before retrying once the backend is back.',
    { code: 'unavailable', reason: 'backend_disconnected', tool },
  );
}

/** The agent cancelled the request (or its connection closed); nobody is waiting for this result. */
export function cancelledResult(tool: string): ToolCallResult {
  return failure(`${tool} was cancelled before the backend answered; its outcome is unknown.`, {
    code: 'unavailable',
    reason: 'cancelled',
    tool,
  });
}
