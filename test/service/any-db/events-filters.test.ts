// GET /api/events filters: `type` and `workspace_id` (its tasks' events and its own) return exactly the
// matching events (replayed and live), and an unknown task, session or workspace is a 404, an unknown
// type a 400, before streaming.
import { EVENT_TYPES } from '@kandev/protocol';
import { useCleanup } from '../../helpers/cleanup';
import { createEventsHarness } from '../../helpers/events-harness';
import type { StreamEvent } from '../../helpers/sse';

const ids = (events: StreamEvent[]) => events.map((e) => e.id);

describe('GET /api/events filters', () => {
  const cleanup = useCleanup();

  test('type and workspace_id filters return exactly the matching events, replayed and live', async () => {
    const h = await createEventsHarness(cleanup);
    const a = await h.agentTask('a');
    const b = await h.agentTask('b');
    const a2 = await h.api.task(a.workspaceId, { title: 'a2' });
    const sa = (await h.api.launch(a.taskId, { surface: 'kanban_task' })).session_id;
    const all = await h.stream('?after=0');
    await all.head();
    // Other types and workspaces are in the log too, so a filter that dropped nothing would fail.
    expect(all.events.some((e) => e.task_id === b.taskId)).toBe(true);
    expect(all.events.some((e) => e.type === 'session.state_changed')).toBe(true);

    // Workspace a's tasks' events, and its own (its creation).
    const inA = (e: StreamEvent) =>
      e.task_id === a.taskId ||
      e.task_id === a2.id ||
      (e.type === 'workspace.created' && (e.data.workspace as { id: string }).id === a.workspaceId);
    const queries: [string, (e: StreamEvent) => boolean][] = [
      ['?type=task.created', (e) => e.type === 'task.created'],
      ['?type=task.created,session.state_changed', (e) => ['task.created', 'session.state_changed'].includes(e.type)],
      ['?type=task.created&type=tools.changed', (e) => ['task.created', 'tools.changed'].includes(e.type)],
      [`?workspace_id=${a.workspaceId}`, inA],
      [`?workspace_id=${b.workspaceId}&type=task.created`, (e) => e.task_id === b.taskId && e.type === 'task.created'],
      [`?workspace_id=${a.workspaceId}&session_id=${sa}`, (e) => e.session_id === sa],
    ];
    const streams = await Promise.all(queries.map(([query]) => h.stream(`${query}&after=0`)));
    for (const [index, stream] of streams.entries()) {
      await stream.head();
      const expected = all.events.filter(queries[index]?.[1] ?? (() => false));
      expect({ query: queries[index]?.[0], ids: ids(stream.events) }).toEqual({
        query: queries[index]?.[0],
        ids: ids(expected),
      });
      expect(expected.length).toBeGreaterThan(0);
    }

    // Live: a task in b, then one in a (the barrier): the workspace-a stream gets only a's.
    const byWorkspace = streams[3];
    const before = byWorkspace?.events.length ?? 0;
    const bLive = await h.api.task(b.workspaceId, { title: 'b live' });
    const aLive = await h.api.task(a.workspaceId, { title: 'a live' });
    await byWorkspace?.next((e) => e.task_id === aLive.id, 'the live task in a');
    const liveIds = byWorkspace?.events.slice(before).map((e) => e.task_id);
    expect(liveIds).toEqual([aLive.id]);
    const typed = streams[0];
    await typed?.next((e) => e.task_id === aLive.id, 'the live task.created');
    expect(typed?.events.some((e) => e.task_id === bLive.id)).toBe(true);
  });

  test.each([
    ['task_id', 'no such task', 'task'],
    ['session_id', 'no such session', 'session'],
    ['workspace_id', 'no such workspace', 'workspace'],
  ])('an unknown %s is a 404 before anything is streamed', async (param, id, what) => {
    const h = await createEventsHarness(cleanup);
    const stream = await h.stream(`?${param}=${encodeURIComponent(id)}`);
    expect(stream.status).toBe(404);
    expect(await stream.errorBody()).toMatchObject({
      error: { code: 'not_found', message: `${what} ${id} not found` },
    });
    expect(h.backend.eventStreams.openCount).toBe(0);
  });

  test.each([['?type=task.deleted'], ['?type=task.created,bogus'], ['?type=reset'], ['?type=stream.head'], ['?type=']])(
    '%s is a 400 naming the known types',
    async (query) => {
      const h = await createEventsHarness(cleanup);
      const stream = await h.stream(query);
      expect(stream.status).toBe(400);
      const body = (await stream.errorBody()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('invalid_argument');
      expect(body.error.message).toMatch(/type/);
      if (query !== '?type=') for (const type of EVENT_TYPES) expect(body.error.message).toContain(type);
      expect(h.backend.eventStreams.openCount).toBe(0);
    },
  );
});
