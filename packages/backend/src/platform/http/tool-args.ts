import type { z } from 'zod';
import type { ToolDefinition, ToolInput } from '@kandev/protocol';
import { AppError } from '@kandev/protocol';
import { parseInput, refusedText } from './parse';

/**
 * A tool's arguments are untrusted (agentctl validated them, but discovery is not a security boundary):
 * parsed with the catalogue's own strict schema before anything is read. Omitted arguments mean `{}`.
 */
export function parseToolArgs<Input extends ToolInput>(tool: ToolDefinition<Input>, args: unknown): z.output<Input> {
  const refused = refusedText(args);
  if (refused !== undefined) throw new AppError('invalid_argument', `invalid arguments of ${tool.name}: ${refused}`);
  return parseInput(tool.input, args ?? {}, `arguments of ${tool.name}`);
}
