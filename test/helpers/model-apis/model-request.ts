// What a stand-in records of every request an agent sends to its model API, family-neutral, so a test
// can assert the prompt, the tools offered and the tool results without knowing the wire format.
import type { ModelStep, ToolsReport } from './model-script';

export type ModelRequestKind = 'main' | 'side';

export interface ModelRequest {
  /** main: a turn of the conversation (scripted); side: titles, suggestions, reviewers, classifiers. */
  kind: ModelRequestKind;
  /** All system and developer text of the request. */
  instructions: string;
  /** The operator's prompts in the request, oldest first (the agent's own context blocks left out). */
  userTexts: string[];
  /** kandev tool names the request shows the model; null when the family cannot show them in a request. */
  kandevTools: string[] | null;
  /** Other MCP tools the request shows, as the family names them. */
  otherMcpTools: string[];
  /** Text of the tool results in the request, oldest first. */
  toolResults: string[];
  /** What the stand-in answered (main requests; null for side requests and the family's own helper calls). */
  step: ModelStep | null;
  raw: unknown;
}

/** The name of the session's MCP server in the agent (agentctl's AGENT_MCP_SERVER_NAME). */
export const KANDEV_SERVER = 'kandev';

/**
 * How a family spells MCP tool names: `mcp__<server>__<tool>` (Claude Code, Codex) or
 * `mcp_<server>_<tool>` (Gemini CLI).
 */
export interface McpNaming {
  /** Every MCP tool name starts with this. */
  readonly mcpPrefix: string;
  /** The kandev server's tools start with this; the rest of the name is the kandev name. */
  readonly kandevPrefix: string;
}

export const DOUBLE_UNDERSCORE_NAMING: McpNaming = { mcpPrefix: 'mcp__', kandevPrefix: `mcp__${KANDEV_SERVER}__` };
export const SINGLE_UNDERSCORE_NAMING: McpNaming = { mcpPrefix: 'mcp_', kandevPrefix: `mcp_${KANDEV_SERVER}_` };

/** Splits tool names into kandev tools (by kandev name) and other MCP tools; built-in tools are dropped. */
export function splitMcpTools(names: Iterable<string>, naming: McpNaming): ToolsReport {
  const kandev = new Set<string>();
  const other = new Set<string>();
  for (const name of names) {
    if (name.startsWith(naming.kandevPrefix)) kandev.add(name.slice(naming.kandevPrefix.length));
    else if (name.startsWith(naming.mcpPrefix)) other.add(name);
  }
  return { kandev: [...kandev].sort(), other: [...other].sort() };
}

/** The family's name of a kandev tool. */
export function familyToolName(kandevName: string, naming: McpNaming): string {
  return `${naming.kandevPrefix}${kandevName}`;
}
