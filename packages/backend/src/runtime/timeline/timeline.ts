import { z } from 'zod';
import { DEFAULT_PAGE_LIMIT, decodeCursor, encodeCursor, type Page } from '../../platform/store/page-cursor';
import type { TimeBound } from '../../platform/store/time-keyset';
import type { Stores } from '../../platform/store/unit-of-work';
import {
  historyEntry,
  parentQuestionEntry,
  promptEntry,
  questionEntry,
  type TimelineEntryView,
  toolCallEntry,
} from './timeline-entry';

// A task's timeline, oldest first, a page at a time: the merge of five tables read from where the
// previous page ended (keyset pages in each, never the whole history and never the event log). At one
// same time the sources come in a fixed order (their rank), then by each table's own key.

/** The cursor: the last entry's time, its source's rank and its key in that source's table. */
const TimelineCursorSchema = z
  .object({ t: z.iso.datetime(), r: z.number().int().min(0).max(4), k: z.union([z.number(), z.string()]) })
  .strict();
type TimelineCursor = z.infer<typeof TimelineCursorSchema>;

interface Positioned {
  entry: TimelineEntryView;
  rank: number;
  key: string | number;
}

interface Source {
  rank: number;
  read(stores: Stores, taskId: string, bound: TimeBound | undefined, limit: number, now: string): Promise<Positioned[]>;
}

const SOURCES: readonly Source[] = [
  {
    rank: 0,
    read: async (stores, taskId, bound, limit) =>
      (await stores.sessions.history(taskId, bound, limit)).map((row) => ({
        entry: historyEntry(row),
        rank: 0,
        key: row.id,
      })),
  },
  {
    rank: 1,
    read: async (stores, taskId, bound, limit) =>
      (await stores.promptQueue.listForTimeline(taskId, bound, limit)).map(({ seq, prompt }) => ({
        entry: promptEntry(prompt),
        rank: 1,
        key: seq,
      })),
  },
  {
    rank: 2,
    read: async (stores, taskId, bound, limit) =>
      (await stores.messages.listToolCalls(taskId, bound, limit)).map((row) => ({
        entry: toolCallEntry(row),
        rank: 2,
        key: row.seq,
      })),
  },
  {
    rank: 3,
    read: async (stores, taskId, bound, limit, now) =>
      (await stores.questions.listForTimeline(taskId, bound, limit)).map((question) => ({
        entry: questionEntry(question, now),
        rank: 3,
        key: question.id,
      })),
  },
  {
    rank: 4,
    read: async (stores, taskId, bound, limit) =>
      (await stores.parentQuestions.listForTimeline(taskId, bound, limit)).map((question) => ({
        entry: parentQuestionEntry(question),
        rank: 4,
        key: question.id,
      })),
  },
];

/** Where a source's rows start after the cursor: rows at the cursor's time follow it only in a later source. */
function boundFor(rank: number, cursor: TimelineCursor | undefined): TimeBound | undefined {
  if (cursor === undefined) return undefined;
  if (rank < cursor.r) return { at: cursor.t, same: 'none' };
  if (rank > cursor.r) return { at: cursor.t, same: 'all' };
  return { at: cursor.t, same: { after: cursor.k } };
}

function before(a: Positioned, b: Positioned): boolean {
  return a.entry.at < b.entry.at || (a.entry.at === b.entry.at && a.rank < b.rank);
}

/** Merges lists each already in order, keeping each one's own order among equal (time, rank). */
function merge(lists: Positioned[][]): Positioned[] {
  const heads = lists.map(() => 0);
  const merged: Positioned[] = [];
  for (;;) {
    let best = -1;
    lists.forEach((list, i) => {
      const candidate = list[heads[i] ?? 0];
      const current = best < 0 ? undefined : lists[best]?.[heads[best] ?? 0];
      if (candidate !== undefined && (current === undefined || before(candidate, current))) best = i;
    });
    if (best < 0) return merged;
    const next = lists[best]?.[heads[best] ?? 0];
    if (next !== undefined) merged.push(next);
    heads[best] = (heads[best] ?? 0) + 1;
  }
}

/** One page of the task's timeline, oldest first; `now` decides whether a pending question has expired. */
export async function readTimeline(
  stores: Stores,
  taskId: string,
  request: { cursor?: string; limit?: number },
  now: string,
): Promise<Page<TimelineEntryView>> {
  const limit = request.limit ?? DEFAULT_PAGE_LIMIT;
  const cursor = request.cursor === undefined ? undefined : decodeCursor(TimelineCursorSchema, request.cursor);
  // limit + 1 from each: the merge's first limit + 1 entries are then exact, and the extra one says
  // whether another page exists.
  const lists = await Promise.all(
    SOURCES.map((source) => source.read(stores, taskId, boundFor(source.rank, cursor), limit + 1, now)),
  );
  const merged = merge(lists);
  const items = merged.slice(0, limit);
  const last = items[items.length - 1];
  const nextCursor =
    merged.length > limit && last !== undefined ? encodeCursor({ t: last.entry.at, r: last.rank, k: last.key }) : null;
  return { items: items.map((item) => item.entry), nextCursor };
}
