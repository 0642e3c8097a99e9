// ask_user_question_kandev in process, on a fresh SQLite file per test: the tool handler holds the call
// while the operator answers over real HTTP (the question routes on port 0). The timeout's timer is
// injected and fired by the test, so nothing sleeps.
import {
  createApp,
  createInProcessBackend,
  createLogger,
  createQuestionRoutes,
  createToolHarness,
  expectRefusedUnchanged,
  listen,
  type StartTimer,
  type ToolHarness,
  type ToolReply,
} from '@kandev/backend/testing';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';

const ASK = 'ask_user_question_kandev';
const ARGS = {
  questions: [
    { id: 'db', prompt: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] },
    { prompt: 'Anything else?' },
  ],
  context: 'Choosing storage.',
};
const GOOD = {
  answers: [
    { question_index: 0, option: 'Postgres' },
    { question_index: 1, text: 'Keep it small.' },
  ],
};

/** A metric's value from the backend's own registry (what its /metrics would show). */
async function metric(harness: ToolHarness, name: string): Promise<number | undefined> {
  return (await harness.backend.metrics.registry.getSingleMetric(name)?.get())?.values[0]?.value;
}

interface Setup {
  harness: ToolHarness;
  api: BackendApi;
  /** Fires the pending question timeouts (the injected timer). */
  fireTimeouts: () => void;
  /** Starts an ask as session s1; resolves `recorded` with the question id once it is committed. */
  ask: (signal?: AbortSignal, session?: string) => { recorded: Promise<string>; reply: Promise<ToolReply> };
}

describe('operator questions (in process)', () => {
  const cleanup = useCleanup();

  async function setup(): Promise<Setup> {
    const timers: (() => void)[] = [];
    const startTimer: StartTimer = (_ms, fire) => {
      timers.push(fire);
      return () => timers.splice(timers.indexOf(fire), 1);
    };
    const harness = await createToolHarness(cleanup, { startTimer });
    await harness.workspace('w');
    await harness.task('parent');
    await harness.task('t1', { parentId: 'parent' });
    await harness.session('sp', 'parent');
    await harness.session('s1', 't1');
    const http = await listen(
      createApp(createLogger('silent'), [createQuestionRoutes(harness.deps.questions)]),
      '127.0.0.1',
      0,
    );
    cleanup.defer(() => http.close());
    const api = new BackendApi(`http://127.0.0.1:${http.port}`);
    const ask = (signal = new AbortController().signal, session = 's1') => {
      let onRecorded: (id: string) => void = () => undefined;
      const recorded = new Promise<string>((resolve) => (onRecorded = resolve));
      const reportProgress = (message: string) => onRecorded(/question (\S+) is waiting/.exec(message)?.[1] ?? '');
      return { recorded, reply: harness.call(session, ASK, ARGS, { signal, reportProgress }) };
    };
    return { harness, api, ask, fireTimeouts: () => [...timers].forEach((fire) => fire()) };
  }

  test('bad arguments and a session without the user capability write nothing', async () => {
    const { harness } = await setup();
    for (const args of [
      {},
      { questions: [] },
      { questions: [{ prompt: 'x', options: [{ label: 'only one' }] }] },
      { questions: Array.from({ length: 5 }, () => ({ prompt: 'x' })) },
      { questions: [{ prompt: 'x' }], task_id: 'parent' },
    ]) {
      await expectRefusedUnchanged(harness, () => harness.call('s1', ASK, args), 'invalid_argument');
    }
    const row = await harness.uow.read.sessions.findById('s1');
    if (row === undefined) throw new Error('no session');
    const session = { ...row, launchConfig: { ...row.launchConfig, questionCapability: 'parent' as const } };
    await expectRefusedUnchanged(harness, () => harness.call('s1', ASK, ARGS, { session }), 'permission_denied');
  });

  test('answered over REST: the held call returns the answers; bad and second answers change nothing', async () => {
    const { harness, api, ask } = await setup();
    expect(await metric(harness, 'kandev_backend_questions_pending')).toBe(0);
    const call = ask();
    const id = await call.recorded;
    // The gauges read the database: one pending question, asked a moment ago.
    expect(await metric(harness, 'kandev_backend_questions_pending')).toBe(1);
    expect(await metric(harness, 'kandev_backend_question_oldest_pending_age_seconds')).toBeGreaterThan(0);
    // The event log's extent from its primary key (question.created among its rows).
    const newest = await harness.uow.read.events.latestId();
    const oldest = await harness.uow.read.events.oldestId();
    expect(await metric(harness, 'kandev_backend_event_log_oldest_id')).toBe(oldest);
    expect(await metric(harness, 'kandev_backend_event_log_rows')).toBe(newest - (oldest ?? newest) + 1);
    const pending = await api.request<{ questions: { id: string; state: string }[] }>(
      'GET',
      '/api/questions?state=pending&task_id=t1',
    );
    expect(pending.body.questions).toEqual([expect.objectContaining({ id, state: 'pending', session_id: 's1' })]);
    expect((await api.request('GET', '/api/questions?state=pending&task_id=parent')).body).toMatchObject({
      questions: [],
    });
    expect((await api.request('GET', '/api/questions?state=bogus')).status).toBe(400);

    const before = await harness.snapshot();
    for (const body of [
      {},
      { answers: [{ question_index: 0, option: 'MySQL' }, GOOD.answers[1]] },
      { answers: [GOOD.answers[0]] },
      { ...GOOD, answered_by: 'x' },
    ]) {
      expect((await api.request('POST', `/api/questions/${id}/answer`, body)).status).toBe(400);
    }
    expect(await harness.snapshot()).toEqual(before);
    expect((await api.request('POST', '/api/questions/nope/answer', GOOD)).status).toBe(404);
    expect((await api.request('GET', '/api/questions/nope')).status).toBe(404);

    const statuses = await Promise.all([
      api.request('POST', `/api/questions/${id}/answer`, GOOD),
      api.request('POST', `/api/questions/${id}/answer`, {
        answers: [
          { question_index: 0, option: 'SQLite' },
          { question_index: 1, text: 'other' },
        ],
      }),
    ]);
    expect(statuses.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await metric(harness, 'kandev_backend_questions_pending')).toBe(0);
    const answered = await harness.backend.metrics.registry.getSingleMetricAsString(
      'kandev_backend_question_answer_seconds',
    );
    expect(answered).toContain('kandev_backend_question_answer_seconds_count 1');
    const winner = statuses.find((r) => r.status === 200)?.body as { answers: { option?: string }[] };
    const reply = await call.reply;
    expect(reply.isError).toBeFalsy();
    expect(reply.structured).toEqual({ status: 'answered', question_id: id, answers: winner.answers });
    expect(reply.text).toContain('Which database?');

    const afterAnswer = await harness.snapshot();
    expect((await api.request('POST', `/api/questions/${id}/answer`, GOOD)).status).toBe(409);
    expect(await harness.snapshot()).toEqual(afterAnswer);
    expect((await api.request('GET', `/api/questions/${id}`)).body).toMatchObject({
      state: 'answered',
      answered_by: 'operator',
    });
    expect(afterAnswer.prompt_queue).toEqual([]); // delivered to the held call, not queued
    expect(harness.deps.questions.waiting).toBe(0);
  });

  test('a timeout ends the question "not answered"; a later answer is refused', async () => {
    const { harness, api, ask, fireTimeouts } = await setup();
    const call = ask();
    const id = await call.recorded;
    fireTimeouts();
    expect(await call.reply).toEqual({
      text: expect.stringMatching(/did not answer .*best judgment/) as unknown,
      structured: { status: 'not_answered', reason: 'timeout', question_id: id },
    });
    expect((await api.request('GET', `/api/questions/${id}`)).body).toMatchObject({
      state: 'expired',
      closed_reason: 'timeout',
    });
    expect((await api.request('POST', `/api/questions/${id}/answer`, GOOD)).status).toBe(409);
    expect(harness.deps.questions.waiting).toBe(0);
  });

  test('an aborted call ends the question cancelled', async () => {
    const { api, ask } = await setup();
    const abort = new AbortController();
    const call = ask(abort.signal);
    const id = await call.recorded;
    abort.abort();
    expect((await call.reply).structured).toEqual({ status: 'not_answered', reason: 'cancelled', question_id: id });
    expect((await api.request('GET', `/api/questions/${id}`)).body).toMatchObject({ state: 'cancelled' });
    expect((await api.request('GET', '/api/questions?state=pending')).body).toMatchObject({ questions: [] });
  });

  test('stopping the session (stop_task_kandev) ends its question session_stopped', async () => {
    const { harness, ask } = await setup();
    const call = ask();
    const id = await call.recorded;
    const stopped = await harness.call('sp', 'stop_task_kandev', { task_id: 't1' });
    expect(stopped.structured).toMatchObject({ stopped_sessions: [{ session_id: 's1' }] });
    expect((await call.reply).structured).toEqual({
      status: 'not_answered',
      reason: 'session_stopped',
      question_id: id,
    });
  });

  test('after a restart (no held call) an answer for an MCP-only session is recorded undeliverable', async () => {
    const { harness, ask } = await setup();
    const call = ask();
    const id = await call.recorded;
    // A second backend over the same database stands for the restarted one: it holds no calls, and the
    // first one's presence is gone (on PostgreSQL a live holder would still get the answer: replicas).
    await harness.backend.replicas.close();
    const { questions: restarted } = (
      await createInProcessBackend(cleanup, {
        db: harness.db,
        clock: harness.clock, // the harness's clock: the question's expiry is relative to it
      })
    ).backend;
    expect((await restarted.list({ state: 'pending' })).questions.map((q) => q.id)).toEqual([id]);
    // The harness's sessions run no agent (MCP-only): a prompt for s1 would never drain.
    const { delivery, question } = await restarted.answer(id, GOOD);
    expect(delivery).toEqual({ to: 'undeliverable', reason: expect.stringContaining('no agent') as unknown });
    expect(question).toMatchObject({ state: 'answered', answerDelivery: 'undeliverable' });
    expect(await harness.uow.read.promptQueue.listQueued('t1')).toEqual([]);
    expect(await harness.uow.read.messages.listAfter('t1', 0, 10)).toEqual([]);
    // The original process's held call learns it too once anything settles it (here: its abort).
    await harness.deps.questions.endForSessions(['s1']);
    expect((await call.reply).structured).toMatchObject({ status: 'answered', question_id: id });
  });
});
