// What operators and agents see of parent questions, over the backend's real routers on a loopback port
// (services in process over real SQLite, fake agentctl): autopilot and pending_action on tasks (REST and
// the task tools), GET /api/tasks/:id/parent-questions, and the operator question API that never shows
// (nor answers) a parent question.
import {
  createApp,
  createLogger,
  createParentQuestionRoutes,
  createPromptRoutes,
  createQuestionRoutes,
  createTaskRoutes,
  listen,
} from '@kandev/backend/testing';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import {
  ASK_PARENT,
  createParentQuestionHarness,
  type ParentQuestionHarness,
  question,
} from '../../helpers/parent-question-harness';

async function serve(h: ParentQuestionHarness, cleanup: Parameters<typeof createParentQuestionHarness>[0]) {
  const app = createApp(createLogger('silent'), [
    createTaskRoutes(h.tasks),
    createParentQuestionRoutes({ uow: h.uow, clock: h.clock }),
    createQuestionRoutes(h.questions),
    createPromptRoutes(h.prompts),
  ]);
  const http = await listen(app, '127.0.0.1', 0);
  cleanup.defer(() => http.close());
  return new BackendApi(`http://127.0.0.1:${http.port}`);
}

async function asked(h: ParentQuestionHarness) {
  const f = await h.family();
  await h.turn(f.childSession, 'work');
  const id = h.structured(await h.call(f.childSession, ASK_PARENT, question())).question_id as string;
  h.agentctl.finishTurn(f.childSession);
  await h.untilState(f.childSession, 'waiting_for_input');
  return { ...f, id };
}

describe('parent questions over REST', () => {
  const cleanup = useCleanup();

  test('tasks show autopilot and pending_action; the questions are listed with their status', async () => {
    const h = await createParentQuestionHarness(cleanup);
    const api = await serve(h, cleanup);
    const f = await asked(h);

    const child = await api.request('GET', `/api/tasks/${f.child}`);
    expect(child).toMatchObject({
      status: 200,
      body: { id: f.child, autopilot: true, pending_action: 'clarification' },
    });
    const root = await api.request('GET', `/api/tasks/${f.root}`);
    expect(root.body).toMatchObject({ autopilot: false, pending_action: null });
    const list = await api.request<{ tasks: { id: string; pending_action: string | null }[]; next_cursor: null }>(
      'GET',
      `/api/tasks?workspace_id=${f.workspaceId}&sort=created_asc`,
    );
    expect(list.status).toBe(200);
    expect(list.body.tasks.map((t) => [t.id, t.pending_action])).toEqual([
      [f.root, null],
      [f.child, 'clarification'],
    ]);
    const children = await api.request<{ tasks: { id: string }[] }>(
      'GET',
      `/api/tasks?workspace_id=${f.workspaceId}&parent_id=${f.root}&limit=1`,
    );
    expect(children.body.tasks.map((t) => t.id)).toEqual([f.child]);

    const listed = await api.request('GET', `/api/tasks/${f.child}/parent-questions`);
    expect(listed).toMatchObject({
      status: 200,
      body: {
        task_id: f.child,
        parent_questions: [
          {
            id: f.id,
            child_task_id: f.child,
            child_session_id: f.childSession,
            parent_task_id: f.root,
            status: 'pending',
            closed_reason: null,
            blocked_reason: 'the schema depends on it',
            questions: [{ id: 'db', prompt: 'Which database?' }],
            answer: null,
          },
        ],
      },
    });
    expect(await api.request('GET', `/api/parent-questions/${f.id}`)).toMatchObject({
      status: 200,
      body: { id: f.id },
    });
    expect((await api.request('GET', '/api/tasks/nope/parent-questions')).status).toBe(404);
    expect((await api.request('GET', `/api/tasks?workspace_id=${f.workspaceId}&bogus=1`)).status).toBe(400);
    expect((await api.request('GET', '/api/tasks')).status).toBe(400);

    // The task tools show the same indicator to agents.
    const tools = h.structured(await h.call(f.rootSession!, 'list_tasks_kandev', {}));
    expect(tools.tasks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: f.child, autopilot: true, pending_action: 'clarification' }),
      ]),
    );
    const got = await h.call(f.rootSession!, 'get_task_kandev', { task_id: f.child });
    expect(got.text).toContain('autopilot, waiting for clarification');
  });

  test('never an operator question: not listed, not answerable through /api/questions', async () => {
    const h = await createParentQuestionHarness(cleanup);
    const api = await serve(h, cleanup);
    const f = await asked(h);
    expect(await api.request('GET', '/api/questions')).toMatchObject({ status: 200, body: { questions: [] } });
    expect((await api.request('GET', `/api/questions?task_id=${f.child}`)).body).toMatchObject({
      questions: [],
      next_cursor: null,
    });
    const before = await h.db('parent_questions').select();
    const answer = await api.request('POST', `/api/questions/${f.id}/answer`, {
      answers: [{ question_index: 0, option: 'Postgres' }],
    });
    expect(answer.status).toBe(404);
    expect(await h.db('parent_questions').select()).toEqual(before);
    expect((await api.request('GET', `/api/questions/${f.id}`)).status).toBe(404);
  });

  test("an operator's prompt (POST /api/sessions/:id/prompts) supersedes the question it answers instead", async () => {
    const h = await createParentQuestionHarness(cleanup);
    const api = await serve(h, cleanup);
    const f = await asked(h);
    const posted = await api.request('POST', `/api/sessions/${f.childSession}/prompts`, { prompt: 'Use SQLite.' });
    expect(posted).toMatchObject({ status: 202, body: { superseded_question_ids: [f.id] } });
    const listed = await api.request<{ parent_questions: { status: string; closed_reason: string }[] }>(
      'GET',
      `/api/tasks/${f.child}/parent-questions`,
    );
    expect(listed.body.parent_questions).toMatchObject([{ status: 'superseded', closed_reason: 'operator_prompt' }]);
    expect((await api.request('GET', `/api/tasks/${f.child}`)).body).toMatchObject({ pending_action: null });
  });
});
