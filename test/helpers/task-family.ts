// The task tree the task tool tests call from (the tool harness with it in place), and the walk over a
// paged tool's cursor they read whole lists with.
import { createToolHarness, type ToolHarness } from '@kandev/backend/testing';
import type { Cleanup } from './cleanup';

/**
 * boss ─┬─ me (the caller, session s-me; owns its title) ── kid (s-kid) ── grandkid
 *       └─ sib
 * stranger lives in another workspace (w2).
 */
export async function taskFamily(h: ToolHarness): Promise<void> {
  await h.workspace('w');
  await h.workspace('w2');
  await h.task('boss');
  await h.task('me', { parentId: 'boss' });
  await h.task('kid', { parentId: 'me' });
  await h.task('grandkid', { parentId: 'kid' });
  await h.task('sib', { parentId: 'boss' });
  await h.task('stranger', { workspaceId: 'w2' });
  await h.session('s-me', 'me', { ownsTaskTitle: true });
  await h.session('s-kid', 'kid');
}

/** A fresh tool harness holding taskFamily. */
export async function familyHarness(cleanup: Cleanup): Promise<ToolHarness> {
  const h = await createToolHarness(cleanup);
  await taskFamily(h);
  return h;
}

/**
 * Calls `tool` as `sessionId` with `args`, following next_cursor until it is null; returns the `key`
 * items of every page, in order.
 */
export async function everyPage<T>(
  h: ToolHarness,
  sessionId: string,
  tool: string,
  args: Record<string, unknown>,
  key: string,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await h.call(sessionId, tool, { ...args, ...(cursor ? { cursor } : {}) });
    items.push(...(page.structured?.[key] as T[]));
    cursor = (page.structured?.next_cursor as string | null) ?? undefined;
  } while (cursor !== undefined);
  return items;
}
