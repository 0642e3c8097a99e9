import type { FileDiff, PlanEntry } from '@kandev/protocol';

// Pure: how what an agent streams (text, plans, tool calls) reads in the conversation. Each streamed
// entry has a key within its session, so the next event of the same stream finds it.

/** A run of agent text: segment n (from 1) of one prompt's output. */
export function textStreamKey(promptId: string, segment: number): string {
  return `text:${promptId}:${segment}`;
}

/** A turn's plan: one entry per prompt, rewritten with each update. */
export function planStreamKey(promptId: string): string {
  return `plan:${promptId}`;
}

const PLAN_MARKS: Record<PlanEntry['status'], string> = { completed: '[x]', in_progress: '[~]', pending: '[ ]' };

/** A plan as text, one line per entry: `[x] done`, `[~] in progress`, `[ ] pending`. */
export function planContent(entries: readonly PlanEntry[]): string {
  return entries.map((entry) => `${PLAN_MARKS[entry.status]} ${entry.content}`).join('\n');
}

/** The plan's list as the entry's metadata keeps it. */
export function planEntriesMetadata(entries: readonly PlanEntry[]) {
  return entries.map(({ content, priority, status }) => ({ content, priority, status }));
}

/** A tool call's file changes as metadata (snake_case, like every metadata key). */
export function diffsMetadata(diffs: readonly FileDiff[]) {
  return diffs.map((diff) => ({
    path: diff.path,
    old_text: diff.oldText,
    new_text: diff.newText,
    truncated: diff.truncated,
  }));
}
