import { z } from 'zod';
import { DEFAULT_PAGE_LIMIT, decodeCursor, type Page, pageOf } from '../../platform/store/page-cursor';
import type { Stores } from '../../platform/store/unit-of-work';
import type { Message } from './message';

/** A conversation cursor holds the position (seq) of the last message read. */
const ConversationCursorSchema = z.object({ s: z.number().int().min(0) }).strict();

/** One page of a task's conversation, oldest first (get_task_conversation_kandev and REST share it). */
export async function readConversation(
  stores: Stores,
  taskId: string,
  request: { cursor?: string; limit?: number },
): Promise<Page<Message>> {
  const limit = request.limit ?? DEFAULT_PAGE_LIMIT;
  const after = request.cursor === undefined ? 0 : decodeCursor(ConversationCursorSchema, request.cursor).s;
  const rows = await stores.messages.listAfter(taskId, after, limit + 1);
  const page = pageOf(rows, limit, (row) => ({ s: row.seq }));
  return { items: page.items.map((row) => row.message), nextCursor: page.nextCursor };
}
