import type { z } from 'zod';

/** Every tool agentctl serves carries the product suffix, so agents can tell kandev tools apart. */
export type ToolName = `${string}_kandev`;

/** A strict zod object: unknown argument properties are rejected, never silently dropped. */
export type ToolInput = z.ZodObject<z.ZodRawShape, z.core.$strict>;

export interface ToolDefinition<Input extends ToolInput = ToolInput> {
  readonly name: ToolName;
  /** Model-facing: what the tool does and when to use it. */
  readonly description: string;
  readonly input: Input;
  /** True for tools that only read; surfaced to clients as the MCP `readOnlyHint` annotation. */
  readonly readOnly: boolean;
}

/**
 * Declares one tool. Agents never pass their own session or task identity: agentctl binds them from
 * the session, so no input schema may declare `session_id`.
 */
export function defineTool<Input extends ToolInput>(tool: {
  name: ToolName;
  description: string;
  input: Input;
  readOnly?: boolean;
}): ToolDefinition<Input> {
  if ('session_id' in tool.input.shape) throw new Error(`${tool.name}: session_id is bound by agentctl`);
  return Object.freeze({ ...tool, readOnly: tool.readOnly ?? false });
}
