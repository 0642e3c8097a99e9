// Test-only: a session's tool view whose listings the test drives (no timers: a wait that the test does
// not satisfy at once resolves with what `timeoutAnswer` says, as if its time had passed).
import { getTaskTool, listTasksTool } from '@kandev/protocol';
import type { AgentToolView } from '../agents/agent-tool-view';

/** Two tools a kanban session always lists. */
export const FAKE_TOOL_NAMES: readonly string[] = [getTaskTool.name, listTasksTool.name];

export class FakeToolView implements AgentToolView {
  names: readonly string[];
  private listings = 0;
  /** Whether every listing connection has listed the current names. */
  current = true;
  /** What a wait that is not satisfied at once resolves with (after its "timeout"). */
  timeoutAnswer = false;
  /** Listings the agent makes on its own when a wait starts (an agent that connects during the handshake). */
  listsOnConnect = true;

  constructor(names: readonly string[] = FAKE_TOOL_NAMES) {
    this.names = names;
  }

  toolNames(): readonly string[] {
    return this.names;
  }

  listingCount(): number {
    return this.listings;
  }

  /** A connection lists the current tools. */
  list(): void {
    this.listings += 1;
    this.current = true;
  }

  /** The session's tools change (list_changed goes out; nobody has re-listed yet). */
  change(names: readonly string[]): void {
    this.names = names;
    this.current = false;
  }

  listedSince(mark: number): Promise<boolean> {
    if (this.listings <= mark && this.listsOnConnect) this.list();
    return Promise.resolve(this.listings > mark || this.timeoutAnswer);
  }

  listedCurrent(): Promise<boolean> {
    return Promise.resolve(this.current || this.timeoutAnswer);
  }
}
