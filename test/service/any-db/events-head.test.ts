// GET /api/events head frame: after the replay every stream gets a `retry:` hint and one `stream.head`
// frame whose id is the log's head, on a first connect and on a resume, and no event is skipped by a
// client that resumes from it, even one committed while the stream was starting.
import { useCleanup } from '../../helpers/cleanup';
import { createEventsHarness } from '../../helpers/events-harness';
import { STREAM_HEAD, type SseStream, type StreamEvent } from '../../helpers/sse';

const RETRY = /^retry: 3000$/m;

const createdOf = (taskId: string) => (event: StreamEvent) => event.type === 'task.created' && event.task_id === taskId;

/** Every frame's id is at most the head's before the head frame and above it after. */
function expectSplitAtHead(stream: SseStream): void {
  const head = Number(stream.heads[0]?.id);
  const headAt = stream.order.indexOf(STREAM_HEAD);
  stream.frames.forEach((frame, index) => {
    const arrivedBeforeHead = index < headAt;
    expect({ id: frame.id, beforeHead: Number(frame.id) <= head }).toEqual({
      id: frame.id,
      beforeHead: arrivedBeforeHead,
    });
  });
}

describe('GET /api/events head frame', () => {
  const cleanup = useCleanup();

  test('an empty log: the head is 0 with the retry hint; resuming from it replays the first event', async () => {
    const h = await createEventsHarness(cleanup);
    const stream = await h.stream();
    const head = await stream.head();
    expect(head).toMatchObject({ id: '0', event: STREAM_HEAD });
    expect(JSON.parse(head.data)).toEqual({ head: '0' });
    expect(stream.text).toMatch(RETRY);
    expect(stream.text.indexOf('retry:')).toBeLessThan(stream.text.indexOf('event: stream.head'));

    const { taskId } = await h.agentTask();
    const live = await stream.next(createdOf(taskId), 'the live task.created');
    const resumed = await h.stream('', { lastEventId: head.id });
    expect((await resumed.next(createdOf(taskId), 'the replayed task.created')).id).toBe(live.id);
    expect(resumed.events[0]?.id).toBe('1');
  });

  test('a first connect and a resume each end their replay with the head frame', async () => {
    const h = await createEventsHarness(cleanup);
    const a = await h.agentTask('a');
    const b = await h.agentTask('b');
    const latest = await h.backend.uow.read.events.latestId();
    expect(latest).toBeGreaterThan(0);

    const first = await h.stream();
    expect((await first.head()).id).toBe(String(latest));
    expect(first.frames).toEqual([]);
    expect(first.text).toMatch(RETRY);

    const replayed = await h.stream('?after=0');
    const replayEnd = await replayed.head();
    expect(replayEnd.id).toBe(String(latest));
    expect(replayed.order.at(-1)).toBe(STREAM_HEAD);
    expect(replayed.events.map((e) => e.task_id)).toEqual(expect.arrayContaining([a.taskId, b.taskId]));
    expect(replayed.text).toMatch(RETRY);

    // Resumed with a filter that matched nothing yet: the head still moves the client's cursor.
    const filtered = await h.stream(`?task_id=${b.taskId}`, { lastEventId: String(latest) });
    expect((await filtered.head()).id).toBe(String(latest));
    expect(filtered.frames).toEqual([]);
    expect(filtered.lastEventId).toBe(String(latest));
  });

  test('events committed while the stream starts are sent once, split at the head; none is skipped', async () => {
    const h = await createEventsHarness(cleanup);
    const { workspaceId } = await h.agentTask('setup');
    const stream = await h.stream();
    // Committed while the stream reads its head (either side of it), then one surely after it.
    const racing = await h.api.task(workspaceId, { title: 'racing' });
    await stream.head();
    const after = await h.api.task(workspaceId, { title: 'after the head' });
    // Barrier: the later event arrived, so the earlier one was sent already if it is ever sent.
    const afterEvent = await stream.next(createdOf(after.id), 'the task created after the head');
    expect(Number(afterEvent.id)).toBeGreaterThan(Number(stream.heads[0]?.id));
    expect(stream.order.indexOf(STREAM_HEAD)).toBeLessThan(stream.order.lastIndexOf('task.created'));
    expectSplitAtHead(stream);

    // The racing event is either before the head (replayed) or after it (live): resuming from the
    // head then gets exactly the events above it.
    const racingEvent = await h.stream('?after=0').then((all) => all.next(createdOf(racing.id), 'racing'));
    const aboveHead = stream.events.filter((e) => Number(e.id) > Number(stream.heads[0]?.id));
    const resumed = await h.stream('', { lastEventId: stream.heads[0]?.id });
    await resumed.head();
    expect(resumed.events.map((e) => e.id)).toEqual(aboveHead.map((e) => e.id));
    // Not sent only when it was committed before the stream's start ("now"), so below the head.
    const sawRacing = stream.events.some((e) => e.id === racingEvent.id);
    expect(sawRacing || Number(racingEvent.id) <= Number(stream.heads[0]?.id)).toBe(true);
  });

  test('an event committed just after the head was read arrives after the head frame', async () => {
    const h = await createEventsHarness(cleanup);
    const { workspaceId } = await h.agentTask('setup');
    const events = h.backend.uow.read.events;
    const latestId = events.latestId.bind(events);
    let reads = 0;
    let committed: string | undefined;
    // The second read is the head's: a task is committed right after it, before the frame is written.
    events.latestId = async () => {
      const id = await latestId();
      reads += 1;
      if (reads === 2) committed = (await h.api.task(workspaceId, { title: 'just after the head' })).id;
      return id;
    };
    const stream = await h.stream('?after=0');
    const head = await stream.head();
    const event = await stream.next(createdOf(committed ?? ''), 'the task committed after the head');
    expect(Number(event.id)).toBeGreaterThan(Number(head.id));
    expect(stream.order.lastIndexOf('task.created')).toBeGreaterThan(stream.order.indexOf(STREAM_HEAD));
    expectSplitAtHead(stream);
  });
});
