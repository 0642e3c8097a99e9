import type { TurnRecord } from '@kandev/protocol';

/** How many prompt ids a session remembers for idempotency (oldest forgotten first). */
export const PROMPT_LEDGER_CAPACITY = 1000;

/**
 * The prompts a runtime session has accepted, by prompt id. It belongs to the session, not to one agent
 * process, so a prompt id seen before an agent restart (resume) is still never delivered again.
 */
export class PromptLedger {
  private readonly records = new Map<string, TurnRecord>();

  constructor(private readonly capacity = PROMPT_LEDGER_CAPACITY) {}

  get(promptId: string): TurnRecord | undefined {
    return this.records.get(promptId);
  }

  /** Adds a new prompt or replaces its record (keeping its place), forgetting the oldest beyond capacity. */
  put(record: TurnRecord): void {
    this.records.set(record.promptId, record);
    for (const oldest of this.records.keys()) {
      if (this.records.size <= this.capacity) break;
      this.records.delete(oldest);
    }
  }

  get size(): number {
    return this.records.size;
  }
}
