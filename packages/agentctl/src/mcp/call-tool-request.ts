import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { refusedTextIn } from '@kandev/protocol';
import type { CallToolParams } from './call-tool';

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks the shape of tools/call params with messages an agent can act on (-32602). The SDK's own
 * schema would fail first with a raw validation dump as an internal error (-32603).
 */
export function checkCallToolParams(params: unknown): CallToolParams {
  if (!isPlainObject(params)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `tools/call params must be an object {"name": <tool>, "arguments": {...}}, not ${kindOf(params)}`,
    );
  }
  const { name, arguments: args } = params;
  if (typeof name !== 'string' || name.length === 0) {
    throw new McpError(ErrorCode.InvalidParams, 'tools/call needs params.name: the name of a tool from tools/list');
  }
  if (args !== undefined && !isPlainObject(args)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `tools/call params.arguments for ${name} must be an object of named arguments, not ${kindOf(args)}`,
    );
  }
  // JSON.parse turns a "\ud800" escape into a lone surrogate: refused here, before any tool (ours or the
  // backend's) reads it, so no store sees text one database keeps and the other refuses.
  const refused = refusedTextIn(args);
  if (refused !== undefined) throw new McpError(ErrorCode.InvalidParams, `tools/call arguments of ${name}: ${refused}`);
  return { ...params, name, ...(args === undefined ? {} : { arguments: args }) };
}

/**
 * The tools/call request as this server registers it: the params check throws the McpError above
 * from inside the parse, and the SDK answers with that error's code and message.
 */
export const CheckedCallToolRequestSchema = z.object({
  method: z.literal('tools/call'),
  params: z.unknown().transform(checkCallToolParams),
});
