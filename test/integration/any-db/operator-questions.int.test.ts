// ask_user_question_kandev end to end: MCP SDK client -> agentctl -> Attach -> the backend, which holds
// the call while the operator answers over REST. Also: a timeout, and a backend killed while a question
// is pending (the restarted backend still lists it; a late answer for this session, which runs no agent,
// is recorded undeliverable and queues nothing).
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp, type McpConnection } from '../../helpers/mcp';
import { startBackend } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

interface QuestionView {
  id: string;
  task_id: string;
  state: string;
  questions: { id: string; prompt: string }[];
}

const ASK = 'ask_user_question_kandev';
const ARGS = {
  questions: [{ id: 'db', prompt: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] }],
  context: 'Choosing storage for the importer.',
};
const ANSWER = { answers: [{ question_index: 0, option: 'Postgres' }] };

const text = (result: ToolResult) => result.content.map((c) => c.text).join('\n');

describe('operator questions through backend + agentctl + MCP client', () => {
  const cleanup = useCleanup();

  async function agentOf(env: Record<string, string> = {}) {
    const backend = await startBackend(cleanup, env);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const task = await api.task(await api.workspace(), { title: 'Importer' });
    const session = await api.launch(task.id);
    expect(session.launch_config.question_capability).toBe('user');
    const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
    await waitUntil(
      async () => {
        const result = (await mcp.client.callTool({ name: 'get_task_kandev', arguments: {} })) as ToolResult;
        return !/No backend is attached/.test(text(result));
      },
      { timeoutMs: 10_000, intervalMs: 50, logs: backend.logs, what: 'the backend to attach' },
    );
    return { backend, api, task, session, mcp };
  }

  function ask(mcp: McpConnection) {
    const progress: (string | undefined)[] = [];
    const reply = mcp.client.callTool({ name: ASK, arguments: ARGS }, undefined, {
      onprogress: (p) => progress.push(p.message),
      timeout: 60_000,
    }) as Promise<ToolResult>;
    return { progress, reply };
  }

  async function pendingOf(api: BackendApi, taskId: string, logs: () => string): Promise<QuestionView> {
    return waitUntil(
      async () => {
        const listed = await api.request<{ questions: QuestionView[] }>(
          'GET',
          `/api/questions?state=pending&task_id=${taskId}`,
        );
        return listed.body.questions[0];
      },
      { timeoutMs: 10_000, logs, what: 'the question to be listed as pending' },
    );
  }

  test('the operator answers; the waiting call returns the chosen option; a second answer is 409', async () => {
    const { backend, api, task, mcp } = await agentOf();
    const call = ask(mcp);
    const pending = await pendingOf(api, task.id, backend.logs);
    expect(pending).toMatchObject({ task_id: task.id, state: 'pending', questions: [{ id: 'db' }] });

    const answered = await api.request('POST', `/api/questions/${pending.id}/answer`, ANSWER);
    expect(answered).toMatchObject({ status: 200, body: { state: 'answered', delivery: { to: 'waiting_call' } } });
    const result = await call.reply;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      status: 'answered',
      question_id: pending.id,
      answers: [{ question_index: 0, question_id: 'db', option: 'Postgres' }],
    });
    expect(text(result)).toContain('Which database? -> Postgres');
    expect(call.progress).toContainEqual(expect.stringContaining(`question ${pending.id} is waiting`));

    expect((await api.request('POST', `/api/questions/${pending.id}/answer`, ANSWER)).status).toBe(409);
    expect((await api.request('GET', `/api/questions?state=pending&task_id=${task.id}`)).body).toMatchObject({
      questions: [],
      next_cursor: null,
    });
  });

  test('unanswered within KANDEV_QUESTION_TIMEOUT_MS: "not answered", and the agent is told to go on', async () => {
    const { api, task, mcp } = await agentOf({ KANDEV_QUESTION_TIMEOUT_MS: '500' });
    const call = ask(mcp);
    const result = await call.reply;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      status: 'not_answered',
      reason: 'timeout',
      question_id: expect.any(String) as unknown,
    });
    expect(text(result)).toMatch(/best judgment/);
    const id = String(result.structuredContent?.question_id);
    expect((await api.request('GET', `/api/questions/${id}`)).body).toMatchObject({
      task_id: task.id,
      state: 'expired',
    });
    expect((await api.request('POST', `/api/questions/${id}/answer`, ANSWER)).status).toBe(409);
  });

  test('a backend killed while a question is pending: the restarted one records the answer undeliverable', async () => {
    const { backend, api, task, session, mcp } = await agentOf();
    const call = ask(mcp);
    const orphaned = call.reply.catch((error: unknown) => error); // its backend dies under it
    const pending = await pendingOf(api, task.id, backend.logs);

    backend.child.kill('SIGKILL');
    await new Promise((resolve) => backend.child.once('exit', resolve));
    const second = await startBackend(cleanup, { KANDEV_DATA_DIR: backend.dataDir });
    const api2 = new BackendApi(second.ready.url, second.apiToken);
    expect((await pendingOf(api2, task.id, second.logs)).id).toBe(pending.id);

    expect((await api2.request('POST', `/api/questions/${pending.id}/answer`, { answers: [] })).status).toBe(400);
    // The session was launched without an agent (MCP-only): its call is gone and no agent takes a prompt.
    const answered = await api2.request<{ state: string; answer_delivery: string; delivery: object }>(
      'POST',
      `/api/questions/${pending.id}/answer`,
      ANSWER,
    );
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ state: 'answered', answer_delivery: 'undeliverable' });
    expect(answered.body.delivery).toEqual({
      to: 'undeliverable',
      reason: expect.stringContaining('has no agent') as unknown,
    });
    // Committed with the answer: nothing was queued for the session, nor written to the conversation.
    const prompts = await api2.request<{ items: unknown[] }>('GET', `/api/sessions/${session.session_id}/prompts`);
    expect(prompts.body.items).toEqual([]);
    const messages = await api2.request<{ messages: unknown[] }>('GET', `/api/tasks/${task.id}/messages`);
    expect(messages.body.messages).toEqual([]);
    expect((await api2.request('GET', `/api/questions/${pending.id}`)).body).toMatchObject({
      answer_delivery: 'undeliverable',
    });
    const timeline = await api2.request<{ entries: { kind: string; answer_delivery?: string }[] }>(
      'GET',
      `/api/tasks/${task.id}/timeline`,
    );
    expect(timeline.body.entries.filter((entry) => entry.kind === 'question')).toEqual([
      expect.objectContaining({ answer_delivery: 'undeliverable' }),
    ]);
    expect((await api2.request('POST', `/api/questions/${pending.id}/answer`, ANSWER)).status).toBe(409);
    // The call that asked ended with its backend (an error or a refusal result), never with an answer.
    const ended = await orphaned;
    expect(ended instanceof Error || (ended as ToolResult).structuredContent?.status !== 'answered').toBe(true);
  });
});
