import { AppError } from '../errors';
import type { LaunchConfig } from '../launch-config';
import { type ToolContext, toolContextFromConfig } from './tool-context';
import type { ToolDefinition } from './tool-definition';
import { TOOL_GROUPS, type ToolGroup } from './tool-groups';

/** Every tool of the catalogue by name: each name has exactly one definition. */
export const TOOL_CATALOGUE: ReadonlyMap<string, ToolDefinition> = new Map(
  TOOL_GROUPS.flatMap((group: ToolGroup) => group.tools.map((tool) => [tool.name, tool] as const)),
);

export function findTool(name: string): ToolDefinition | undefined {
  return TOOL_CATALOGUE.get(name);
}

/** True when a session with this context is served the tool: some group that holds it is enabled. */
export function isToolServed(name: string, context: ToolContext): boolean {
  return TOOL_GROUPS.some((group: ToolGroup) => group.enabled(context) && group.tools.some((t) => t.name === name));
}

function describeContext(context: ToolContext): string {
  const providers = context.providers.size === 0 ? 'none' : [...context.providers].join(', ');
  const title = context.ownsTaskTitle ? 'owns its task title' : 'does not own its task title';
  return `surface ${context.surface}, question capability ${context.questionCapability}, providers ${providers}, ${title}`;
}

/**
 * The check the backend makes on every incoming call, over the same table agentctl lists from and the
 * session's stored launch config. Discovery is not a security boundary: a call that reaches the
 * backend for a tool the session is not served is refused before its handler runs.
 */
export function assertToolServed(
  name: string,
  config: Pick<LaunchConfig, 'surface' | 'questionCapability' | 'providers' | 'ownsTaskTitle'>,
): void {
  if (!TOOL_CATALOGUE.has(name)) throw new AppError('not_found', `tool ${name} is not served`);
  const context = toolContextFromConfig(config);
  if (isToolServed(name, context)) return;
  throw new AppError(
    'permission_denied',
    `${name} is not served to this session (${describeContext(context)}); a resume rebuilds its tools`,
  );
}
