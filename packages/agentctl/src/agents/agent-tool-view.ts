// What an agent runner needs to know about its session's MCP tools and who has listed them. The
// session (sessions/runtime-session.ts) implements it; the runner never sees connections.

export interface AgentToolView {
  /** The session's current tool names. */
  toolNames(): readonly string[];
  /** How many tools/list requests the session has answered so far (a mark for listedSince). */
  listingCount(): number;
  /**
   * Resolves true once the session has answered a tools/list after `mark` (at once if it already has),
   * false when `timeoutMs` passes first.
   */
  listedSince(mark: number, timeoutMs: number): Promise<boolean>;
  /**
   * Resolves true once every MCP connection that has listed tools has listed the current ones (at once
   * if so), false when `timeoutMs` passes first: an agent that ignores list_changed never re-lists.
   */
  listedCurrent(timeoutMs: number): Promise<boolean>;
}

/** An agent without the session's MCP server: nothing is ever listed, and nothing to wait for. */
export const NO_TOOL_VIEW: AgentToolView = {
  toolNames: () => [],
  listingCount: () => 0,
  listedSince: () => Promise.resolve(false),
  listedCurrent: () => Promise.resolve(true),
};

/** Names added and removed between two tool lists, each sorted. */
export function toolChanges(
  before: readonly string[],
  after: readonly string[],
): { added: string[]; removed: string[] } {
  return {
    added: after.filter((name) => !before.includes(name)).sort(),
    removed: before.filter((name) => !after.includes(name)).sort(),
  };
}
