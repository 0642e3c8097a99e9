import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolDefinition, ToolInput } from '@kandev/protocol';

/** The MCP wire shape of one tool in a tools/list result. */
export type ListedTool = Tool;

const converted = new WeakMap<ToolInput, Tool['inputSchema']>();

function isObjectSchema(schema: Record<string, unknown>): schema is Tool['inputSchema'] {
  return schema.type === 'object' && schema.additionalProperties === false;
}

/** JSON Schema of a tool's input, computed once per schema (unknown properties: `additionalProperties: false`). */
export function inputJsonSchema(input: ToolInput): Tool['inputSchema'] {
  let schema = converted.get(input);
  if (schema === undefined) {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(input, { io: 'input' });
    if (!isObjectSchema(rest)) throw new Error('tool inputs must be strict zod objects');
    schema = rest;
    converted.set(input, schema);
  }
  return schema;
}

export function toListedTool(tool: ToolDefinition): ListedTool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: inputJsonSchema(tool.input),
    annotations: { readOnlyHint: tool.readOnly },
  };
}
