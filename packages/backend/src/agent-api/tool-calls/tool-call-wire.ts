import { z } from 'zod';
import { AppError, type ErrorCode, type WireBackendMessage } from '@kandev/protocol';
import type { ToolReply } from './tool-handler';

// Pure mappers between the Attach wire messages and the dispatcher's typed values.

const id = z.string().min(1);

/** A ToolCallRequest as grpc-js hands it over (`--defaults`: a missing id arrives as ''). */
const ToolCallRequestSchema = z.object({
  call_id: id,
  session_id: id,
  task_id: id,
  workspace_id: id,
  tool_name: id,
  arguments_json: z.string(),
  revision: z.string().regex(/^\d+$/),
});

export interface ParsedToolCall {
  callId: string;
  sessionId: string;
  taskId: string;
  workspaceId: string;
  toolName: string;
  /** The agent's arguments, untrusted: each handler parses them with its own strict schema. */
  args: Record<string, unknown>;
  revision: number;
}

/** The call id of a request, when it has one (a reply needs it, even to a malformed request). */
export function callIdOf(request: unknown): string | undefined {
  const callId = (request as { call_id?: unknown } | null)?.call_id;
  return typeof callId === 'string' && callId.length > 0 ? callId : undefined;
}

function parseArguments(json: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new AppError('invalid_argument', 'malformed tool call: arguments_json is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AppError('invalid_argument', 'malformed tool call: arguments_json is not a JSON object');
  }
  return value as Record<string, unknown>;
}

/** Parses an incoming request; AppError('invalid_argument') naming the bad fields, never their values. */
export function parseToolCall(request: unknown): ParsedToolCall {
  const parsed = ToolCallRequestSchema.safeParse(request);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))].sort();
    throw new AppError('invalid_argument', `malformed tool call: ${fields.join(', ')}`);
  }
  const r = parsed.data;
  return {
    callId: r.call_id,
    sessionId: r.session_id,
    taskId: r.task_id,
    workspaceId: r.workspace_id,
    toolName: r.tool_name,
    args: parseArguments(r.arguments_json),
    revision: Number(r.revision),
  };
}

export function outputMessage(callId: string, reply: ToolReply): WireBackendMessage {
  return {
    tool_result: {
      call_id: callId,
      output: {
        text: reply.text,
        structured_json: reply.structured === undefined ? '' : JSON.stringify(reply.structured),
        is_error: reply.isError ?? false,
      },
    },
  };
}

export function errorMessage(callId: string, code: ErrorCode, message: string): WireBackendMessage {
  return { tool_result: { call_id: callId, error: { code, message } } };
}

export function progressMessage(callId: string, message: string): WireBackendMessage {
  return { tool_progress: { call_id: callId, message } };
}
