// A token limited to some workspaces follows GET /api/events through the real token check and route
// policy: for any mix of events over three workspaces (of a task, or of the workspace itself such as a
// repository's) and events of none, any scope and any replay point, the stream carries exactly the
// scope's events, in order, replayed and live alike, and never a type only an admin's stream carries.
import fc from 'fast-check';
import { ADMIN_EVENT_TYPES, EVENT_TYPES } from '@kandev/protocol';
import type { NewEvent } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { startRolesBackend } from '../../helpers/roles-backend';
import { SseStream, type StreamEvent } from '../../helpers/sse';

const AT = '2026-12-05T10:00:00.000Z';
/** An event of workspace 0, 1 or 2 (through a task, or of the workspace itself), or of none (null). */
const eventArb = fc.record({
  workspace: fc.constantFrom(0, 1, 2, null),
  ofTask: fc.boolean(),
  type: fc.constantFrom(...EVENT_TYPES),
});
type ArbEvent = { workspace: number | null; ofTask: boolean; type: NewEvent['type'] };
const scopeArb = fc.subarray([0, 1, 2], { minLength: 1 });

describe('event stream of a workspace-limited token (property)', () => {
  const cleanup = useCleanup();

  test('never carries another workspace’s event, and misses none of its own', async () => {
    const { backend, baseUrl, admin, tokenFor } = await startRolesBackend(cleanup);
    const workspaces = [await admin.workspace('a'), await admin.workspace('b'), await admin.workspace('c')];
    const tasks = await Promise.all(workspaces.map(async (id) => (await admin.task(id, { title: 't' })).id));
    const taskOf = (event: ArbEvent) => (event.workspace === null || !event.ofTask ? null : tasks[event.workspace]!);
    const append = (events: readonly ArbEvent[], marker: string) =>
      backend.uow.transaction((stores) =>
        stores.events.appendMany(
          events.map((event, index) => ({
            type: event.type,
            taskId: taskOf(event),
            sessionId: null,
            ...(event.workspace !== null && !event.ofTask ? { workspaceId: workspaces[event.workspace]! } : {}),
            data: { marker, index },
            at: AT,
          })),
        ),
      );
    let round = 0;

    await fc.assert(
      fc.asyncProperty(
        scopeArb,
        fc.array(eventArb, { maxLength: 25 }),
        fc.array(eventArb, { maxLength: 25 }),
        async (scope, replayed, live) => {
          round += 1;
          const marker = `r${round}`;
          const token = await tokenFor(
            'viewer',
            scope.map((index) => workspaces[index]!),
          );
          const expected = (events: typeof replayed, what: string) =>
            events.flatMap((event, index) =>
              event.workspace !== null && scope.includes(event.workspace) && !ADMIN_EVENT_TYPES.includes(event.type)
                ? [{ task_id: taskOf(event), marker: what, index }]
                : [],
            );
          const seen = (stream: SseStream) =>
            stream.events
              .filter((event: StreamEvent) => String(event.data.marker).startsWith(marker))
              .map((event) => ({ task_id: event.task_id, marker: String(event.data.marker), index: event.data.index }));

          // Replay: opened after the round's first events were recorded, resuming from before them.
          const before = await backend.uow.read.events.latestId();
          await append(replayed, `${marker}-replay`);
          const stream = await SseStream.open(`${baseUrl}/api/events?after=${before}`, cleanup, { token });
          expect(stream.status).toBe(200);
          await stream.head();

          // Live: then the barrier, an event in the scope's first workspace, after everything else.
          await append(live, `${marker}-live`);
          await append([{ workspace: scope[0]!, ofTask: true, type: 'task.updated' }], `${marker}-barrier`);
          await stream.next((event) => event.data.marker === `${marker}-barrier`, 'the barrier');
          stream.close();

          expect(seen(stream)).toEqual([
            ...expected(replayed, `${marker}-replay`),
            ...expected(live, `${marker}-live`),
            { task_id: tasks[scope[0]!], marker: `${marker}-barrier`, index: 0 },
          ]);
        },
      ),
      { seed: 20261205, numRuns: 25 },
    );
  });
});
