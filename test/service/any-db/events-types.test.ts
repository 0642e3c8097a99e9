// Each remaining event type recorded with its payload (services in process, real SQLite, fake agentctl):
// task.created | updated | archived (the REST task view), queue.changed (the task's depth),
// question.created | answered | closed (GET /api/questions/:id's view), parent_question.* (the parent
// question view) and mr.lifecycle (GET …/lifecycle's view), read back from the log and, for the REST
// ones, from a live stream.
import type { ParentQuestion, StoredEvent } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { createEventsHarness, type EventsHarness } from '../../helpers/events-harness';
import { createMrLifecycleEnv, IID, PROJECT } from '../../helpers/mr-lifecycle';
import type { StreamEvent } from '../../helpers/sse';

const ofType = (type: string) => (event: StreamEvent) => event.type === type;
const ARGS = {
  questions: [{ prompt: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] }],
  context: 'Choosing storage.',
};

async function logOf(h: EventsHarness, filter: { taskId?: string; sessionId?: string } = {}): Promise<StoredEvent[]> {
  return h.backend.uow.read.events.after(0, filter, 1000);
}

describe('event types and payloads', () => {
  const cleanup = useCleanup();

  test('task.created, task.updated and task.archived carry the task as GET /api/tasks/:id shows it', async () => {
    const h = await createEventsHarness(cleanup);
    const stream = await h.stream();
    const { taskId } = await h.agentTask('board');
    const created = await stream.next(ofType('task.created'), 'task.created');
    expect(created).toMatchObject({ task_id: taskId, session_id: null });
    expect((created.data.task as { title: string }).title).toBe('board');

    expect((await h.api.request('PATCH', `/api/tasks/${taskId}`, { title: 'renamed' })).status).toBe(200);
    const updated = await stream.next(ofType('task.updated'), 'task.updated');
    expect(updated.data.task).toMatchObject({ id: taskId, title: 'renamed' });

    expect((await h.api.request('DELETE', `/api/tasks/${taskId}`)).status).toBe(204);
    const archived = await stream.next(ofType('task.archived'), 'task.archived');
    expect(archived.data).toEqual({ task: (await h.api.request('GET', `/api/tasks/${taskId}`)).body });
    // Archiving again changes nothing, so nothing new is recorded.
    await h.api.request('DELETE', `/api/tasks/${taskId}`);
    expect((await logOf(h, { taskId })).filter((e) => e.type === 'task.archived')).toHaveLength(1);
  });

  test('queue.changed: the depth when a prompt is queued and when it is claimed', async () => {
    const h = await createEventsHarness(cleanup);
    const { taskId } = await h.agentTask();
    const sessionId = (await h.api.launch(taskId)).session_id;
    const stream = await h.stream(`?session_id=${sessionId}`);
    const queued = await h.api.queuePrompt(sessionId, 'one');
    const first = await stream.next(ofType('queue.changed'), 'queued');
    expect(first).toMatchObject({
      task_id: taskId,
      session_id: sessionId,
      data: { depth: 1, prompt_id: queued.body.queued_prompt_id, status: 'queued' },
    });
    const claimed = await stream.next((e) => e.type === 'queue.changed' && e.data.depth === 0, 'claimed');
    expect(claimed.data).toEqual({ depth: 0, prompt_id: queued.body.queued_prompt_id, status: 'dispatched' });
  });

  test('question.created, question.answered and question.closed carry GET /api/questions/:id', async () => {
    const h = await createEventsHarness(cleanup);
    const { taskId } = await h.agentTask();
    const sessionId = (await h.api.launch(taskId)).session_id;
    const stream = await h.stream(`?task_id=${taskId}`);
    const ask = (callId: string, signal = new AbortController().signal) =>
      new Promise<string>((recorded) => {
        void h.backend.questions.ask({
          taskId,
          sessionId,
          callId,
          args: ARGS,
          signal,
          onRecorded: (q) => recorded(q.id),
        });
      });
    const id = await ask('c1');
    const created = await stream.next(ofType('question.created'), 'question.created');
    expect(created.data).toMatchObject({ question: { id, state: 'pending', task_id: taskId, session_id: sessionId } });
    const answered = await h.api.request('POST', `/api/questions/${id}/answer`, {
      answers: [{ question_index: 0, option: 'SQLite' }],
    });
    expect(answered.status).toBe(200);
    const event = await stream.next(ofType('question.answered'), 'question.answered');
    expect(event.data).toEqual({ question: (await h.api.request('GET', `/api/questions/${id}`)).body });

    const abort = new AbortController();
    const second = await ask('c2', abort.signal);
    abort.abort();
    const closed = await stream.next(ofType('question.closed'), 'question.closed');
    expect(closed.data.question).toMatchObject({ id: second, state: 'cancelled', closed_reason: 'cancelled' });
  });

  test('parent_question.created, answered and closed carry the parent question view', async () => {
    const h = await createEventsHarness(cleanup);
    const parent = await h.agentTask('parent');
    const child = await h.api.task(parent.workspaceId, { title: 'child', parent_id: parent.taskId });
    const sessionId = (await h.api.launch(child.id)).session_id;
    const at = '2026-12-01T10:00:00.000Z';
    const question = (id: string): ParentQuestion => ({
      id,
      childTaskId: child.id,
      childSessionId: sessionId,
      childSessionTokenHash: 'h',
      parentTaskId: parent.taskId,
      callKey: `key-${id}`,
      callId: `call-${id}`,
      turnPromptId: null,
      questions: [{ id: 'q1', prompt: 'Which?' }],
      context: null,
      blockedReason: 'b',
      status: 'pending',
      closedReason: null,
      messageId: `m-${id}`,
      parentPromptId: `p-${id}`,
      answer: null,
      answeredByTaskId: null,
      answeredBySessionId: null,
      answerPromptId: null,
      createdAt: at,
      answeredAt: null,
      closedAt: null,
    });
    const store = h.backend.uow.read.parentQuestions;
    await store.insert(question('pq1'));
    const answer = { answer: 'use SQLite', byTaskId: parent.taskId, bySessionId: 'ps', answerPromptId: 'ap', now: at };
    expect(await store.markAnswered('pq1', answer)).toBe(true);
    await store.insert(question('pq2'));
    expect(await store.close('pq2', 'stale', 'session_ended', at)).toBe(true);
    expect(await store.close('pq2', 'stale', 'session_ended', at)).toBe(false); // no second event

    const events = (await logOf(h, { sessionId })).filter((e) => e.type.startsWith('parent_question.'));
    expect(events.map((e) => [e.type, (e.data.question as { id: string; status: string }).status])).toEqual([
      ['parent_question.created', 'pending'],
      ['parent_question.answered', 'answered'],
      ['parent_question.created', 'pending'],
      ['parent_question.closed', 'stale'],
    ]);
    const view = (await h.api.request('GET', '/api/parent-questions/pq1')).body;
    expect(events[1]).toMatchObject({ taskId: child.id, sessionId, data: { question: view } });
  });

  test('mr.lifecycle: a transition that queues a prompt carries the lifecycle view', async () => {
    const t = await createMrLifecycleEnv(cleanup);
    t.gitlab.setMr(PROJECT, IID, { state: 'opened' });
    await t.poller.pollOnce();
    t.gitlab.setMr(PROJECT, IID, { state: 'merged', sha: 'a'.repeat(40) });
    await t.poller.pollOnce();
    const events = await t.env.uow.read.events.after(0, { taskId: t.taskId }, 1000);
    const lifecycle = events.filter((e) => e.type === 'mr.lifecycle');
    expect(lifecycle).toHaveLength(1);
    expect(lifecycle[0]?.data).toEqual({
      mr_link_id: t.linkId,
      project_path: PROJECT,
      iid: IID,
      prompted: ['merged'],
      lifecycle: await t.lifecycle(),
    });
    // The prompt it queued is on the log too.
    expect(events.some((e) => e.type === 'queue.changed' && e.data.status === 'queued')).toBe(true);
  });
});
