// GET /api/events in process (real routers, auth and guard, real SQLite, fake agentctl): the core event
// types recorded with their payloads, filters, replay after Last-Event-ID, the reset, and every refusal
// (bad input 400, no token 401, foreign Host 403, too many streams 503) changing nothing.
import { request } from 'node:http';
import { useCleanup } from '../../helpers/cleanup';
import { createEventsHarness, EVENTS_TOKEN } from '../../helpers/events-harness';
import type { StreamEvent } from '../../helpers/sse';
import { waitUntil } from '../../helpers/wait';

const ofType = (type: string) => (event: StreamEvent) => event.type === type;

describe('GET /api/events', () => {
  const cleanup = useCleanup();

  test('a launch and a prompt stream session.state_changed, tools.changed and message.created', async () => {
    const h = await createEventsHarness(cleanup);
    const stream = await h.stream();
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('cache-control')).toContain('no-cache');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');

    const { taskId } = await h.agentTask();
    const launched = await h.api.launch(taskId, { surface: 'kanban_task' });
    const sessionId = launched.session_id;
    const ready = await stream.next(
      (e) => e.type === 'session.state_changed' && e.data.state === 'waiting_for_input',
      'the session to wait for input',
    );
    const states = stream.events.filter(ofType('session.state_changed')).map((e) => e.data);
    expect(states).toEqual([
      { state: 'created', previous_state: null, executor: 'local' },
      { state: 'starting', previous_state: 'created', executor: 'local' },
      { state: 'waiting_for_input', previous_state: 'starting', executor: 'local' },
    ]);
    expect(ready).toMatchObject({ task_id: taskId, session_id: sessionId });
    const tools = stream.events.find(ofType('tools.changed'));
    expect(tools).toMatchObject({
      task_id: taskId,
      session_id: sessionId,
      data: { revision: 1, providers: [], removed: [] },
    });
    expect(tools?.data.added).toEqual(expect.arrayContaining(['ask_user_question_kandev', 'get_task_kandev']));

    const queued = await h.api.queuePrompt(sessionId, 'hello events');
    expect(queued.status).toBe(202);
    const created = await stream.next(ofType('message.created'), 'the prompt message');
    const messages = await h.api.request<{ messages: unknown[] }>('GET', `/api/tasks/${taskId}/messages`);
    expect(created.data).toEqual({ message: messages.body.messages[0] });
    expect(created).toMatchObject({ task_id: taskId, session_id: sessionId });

    // Every frame: id, event and data agree; ids are increasing decimal strings.
    for (const [index, frame] of stream.frames.entries()) {
      const event = stream.events[index];
      expect(frame.id).toBe(event?.id);
      expect(frame.event).toBe(event?.type);
      expect(event?.at).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    const ids = stream.events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  test('filters by task and session; Last-Event-ID replays exactly the later events, then goes live', async () => {
    const h = await createEventsHarness(cleanup);
    const all = await h.stream('?after=0');
    const a = await h.agentTask('a');
    const b = await h.agentTask('b');
    const sa = (await h.api.launch(a.taskId, { surface: 'kanban_task' })).session_id;
    const sb = (await h.api.launch(b.taskId, { surface: 'kanban_task' })).session_id;
    const readyOf = (id: string) => (e: StreamEvent) =>
      e.session_id === id && e.type === 'session.state_changed' && e.data.state === 'waiting_for_input';
    await all.next(readyOf(sa), 'a ready');
    await all.next(readyOf(sb), 'b ready');

    const byTask = await h.stream(`?task_id=${a.taskId}&after=0`);
    const bySession = await h.stream(`?session_id=${sb}&after=0`);
    const both = await h.stream(`?task_id=${a.taskId}&session_id=${sb}&after=0`);
    const expectedA = all.events.filter((e) => e.task_id === a.taskId);
    const expectedB = all.events.filter((e) => e.session_id === sb);
    expect((await byTask.count(expectedA.length)).map((e) => e.id)).toEqual(expectedA.map((e) => e.id));
    expect((await bySession.count(expectedB.length)).map((e) => e.id)).toEqual(expectedB.map((e) => e.id));

    // Resume in the middle: exactly the later events, then live ones.
    const middle = all.events[2]?.id ?? '';
    const resumed = await h.stream('', { lastEventId: middle });
    const later = all.events.slice(3);
    expect((await resumed.count(later.length)).map((e) => e.id)).toEqual(later.map((e) => e.id));
    const before = Number(all.lastEventId);
    await h.api.queuePrompt(sa, 'after the resume');
    const live = await resumed.next(ofType('message.created'), 'the live message');
    expect(Number(live.id)).toBeGreaterThan(before);
    // The filtered streams saw what matched only; a barrier (the message) tells us b's stream is done.
    await byTask.next(ofType('message.created'), 'a message on the task stream');
    expect(bySession.events.every((e) => e.session_id === sb)).toBe(true);
    expect(byTask.events.every((e) => e.task_id === a.taskId)).toBe(true);
    expect(both.events).toEqual([]);
  });

  test('a wake-up while a stream is starting replays nothing from before its start', async () => {
    const h = await createEventsHarness(cleanup);
    const { taskId } = await h.agentTask();
    const sessionId = (await h.api.launch(taskId, { surface: 'kanban_task' })).session_id;
    await h.api.queuePrompt(sessionId, 'one');
    const events = h.backend.uow.read.events;
    const latestId = events.latestId.bind(events);
    const before = await latestId();
    let woken = false;
    // Another commit's wake-up arrives while the stream reads where to start.
    events.latestId = () => {
      if (!woken) h.backend.replicas.publish('events');
      woken = true;
      return latestId();
    };
    const stream = await h.stream();
    await h.api.queuePrompt(sessionId, 'two');
    await stream.next(ofType('message.created'), 'the live message');
    expect(woken).toBe(true);
    expect(stream.events.map((e) => Number(e.id)).filter((id) => id <= before)).toEqual([]);
  });

  test('a Last-Event-ID older than the retained log gets one reset, then live events', async () => {
    const h = await createEventsHarness(cleanup, { events: { retention: { maxAgeMs: 3_600_000, maxRows: 2 } } });
    const { taskId } = await h.agentTask();
    const sessionId = (await h.api.launch(taskId, { surface: 'kanban_task' })).session_id;
    await h.api.queuePrompt(sessionId, 'one');
    expect(await h.backend.eventPruner.prune()).toBeGreaterThan(0);
    const oldest = await h.backend.uow.read.events.oldestId();

    const stream = await h.stream('', { lastEventId: '1' });
    const [reset] = await stream.count(1);
    expect(reset).toMatchObject({ type: 'reset', data: { oldest_id: String(oldest) } });
    expect(stream.frames[0]?.event).toBe('reset');
    await h.api.queuePrompt(sessionId, 'two');
    const next = await stream.next(ofType('message.created'), 'the live message');
    expect(Number(next.id)).toBeGreaterThan(Number(reset?.id));
    // Reconnecting from the reset's id replays without another reset.
    const again = await h.stream('', { lastEventId: reset?.id });
    expect((await again.next(ofType('message.created'), 'the message again')).id).toBe(next.id);
    expect(again.events.some(ofType('reset'))).toBe(false);
  });

  test.each([
    ['?after=abc', undefined, /after/],
    ['?after=-1', undefined, /after/],
    ['?task_id=a&task_id=b', undefined, /task_id/],
    ['?unknown=1', undefined, /unknown|unrecognized/i],
    ['', 'not-a-number', /Last-Event-ID/],
    ['', '1.5', /Last-Event-ID/],
  ])('bad input %s (Last-Event-ID %s) is a 400 with a message', async (query, lastEventId, message) => {
    const h = await createEventsHarness(cleanup);
    const stream = await h.stream(query, { lastEventId });
    expect(stream.status).toBe(400);
    expect(await stream.errorBody()).toMatchObject({ error: { code: 'invalid_argument', message } });
    expect(h.backend.eventStreams.openCount).toBe(0);
  });

  test('no token is 401, a foreign Host 403, more streams than the cap 503', async () => {
    const h = await createEventsHarness(cleanup, { events: { maxStreams: 1 } });
    const anonymous = await h.stream('', { token: undefined });
    expect(anonymous.status).toBe(401);
    const port = new URL(h.baseUrl).port;
    const foreign = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/api/events',
          headers: { host: 'evil.example', authorization: `Bearer ${EVENTS_TOKEN}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(foreign).toBe(403);
    const first = await h.stream();
    expect(first.status).toBe(200);
    const second = await h.stream();
    expect(second.status).toBe(503);
    expect(await second.errorBody()).toMatchObject({ error: { message: /KANDEV_EVENT_MAX_STREAMS/ } });
    // Closing the first frees its slot.
    first.close();
    await waitUntil(() => h.backend.eventStreams.openCount === 0, { timeoutMs: 5_000, what: 'the slot to free' });
    const third = await h.stream();
    expect(third.status).toBe(200);
    // Its start has read the log before the test ends and the database closes.
    await third.head();
  });

  test('pings keep an idle stream open past the server request and keep-alive timeouts', async () => {
    const h = await createEventsHarness(cleanup, {
      events: { pingMs: 20 },
      timeouts: { headersMs: 100, requestMs: 150, keepAliveMs: 50 },
    });
    const stream = await h.stream();
    await stream.until(() => (stream.comments.filter((c) => c === 'ping').length >= 12 ? true : undefined), '12 pings');
    const { taskId } = await h.agentTask();
    await h.api.launch(taskId, { surface: 'kanban_task' });
    await stream.next(ofType('session.state_changed'), 'an event after the timeouts passed');
  });
});
