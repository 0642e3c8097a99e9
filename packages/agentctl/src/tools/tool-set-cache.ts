import type { ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { selectGroups, TOOL_GROUPS, type ToolContext, type ToolDefinition, type ToolGroup } from '@kandev/protocol';
import { toListedTool } from './tool-json-schema';

/**
 * The tools one session can discover, computed once per config revision and shared (immutable) by
 * every session with the same enabled groups. `listResult` is what tools/list answers, from memory.
 */
export interface ToolSet {
  /** The enabled group names joined in table order: the cache key. */
  readonly key: string;
  readonly tools: readonly ToolDefinition[];
  /** Sorted tool names (what SessionState reports). */
  readonly names: readonly string[];
  /** Shared by every connection: never mutate it. */
  readonly listResult: ListToolsResult;
  /** `listResult` serialised once, so a tools/list answer costs no serialisation per call. */
  readonly listResultJson: string;
  find(name: string): ToolDefinition | undefined;
}

function buildToolSet(key: string, groups: readonly ToolGroup[]): ToolSet {
  const byName = new Map<string, ToolDefinition>();
  for (const tool of groups.flatMap((group) => group.tools)) {
    if (byName.has(tool.name)) throw new Error(`tool ${tool.name} is enabled twice (groups: ${key})`);
    byName.set(tool.name, tool);
  }
  const tools = Object.freeze([...byName.values()]);
  const listResult: ListToolsResult = { tools: tools.map(toListedTool) };
  return Object.freeze({
    key,
    tools,
    names: Object.freeze([...byName.keys()].sort()),
    listResult,
    listResultJson: JSON.stringify(listResult),
    find: (name: string) => byName.get(name),
  });
}

/** Resolves a context to its ToolSet, building each distinct group combination only once. */
export class ToolSetCache {
  private readonly sets = new Map<string, ToolSet>();

  constructor(private readonly groups: readonly ToolGroup[] = TOOL_GROUPS) {}

  resolve(context: ToolContext): ToolSet {
    const enabled = selectGroups(context, this.groups);
    const key = enabled.map((group) => group.name).join('+');
    let set = this.sets.get(key);
    if (set === undefined) {
      set = buildToolSet(key, enabled);
      this.sets.set(key, set);
    }
    return set;
  }

  get size(): number {
    return this.sets.size;
  }
}

/** True when two tool sets expose different tools (what decides a list_changed notification). */
export function toolListChanged(before: ToolSet, after: ToolSet): boolean {
  return before !== after && before.names.join('\n') !== after.names.join('\n');
}
