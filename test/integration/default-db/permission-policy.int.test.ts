// The permission policy end to end, black box: a real backend (with its own agentctl) runs the scripted
// test agent, whose turn sends ACP session/request_permission and replies with the outcome it got.
// allow_all and deny_all are answered by agentctl; ask becomes an operator question of kind
// 'permission' answered over REST, or rejected when nobody answers in time; an autopilot root has
// nobody to ask and is rejected at once; an autopilot child's request is a parent question that the
// parent answers with message_task_kandev reply_to_question_id. "Allow always" is remembered by kandev
// for the task (docs/agents.md): the agent receives allow_once, never allow_always, and
// the same request in a later turn is allowed once without a question.
import { type AgentSessionSetup, launchAgentSession } from '../../helpers/agent-runtime';
import { answerOverMcp, AutopilotWorld } from '../../helpers/autopilot';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';
import { cliJson, runCli } from '../../helpers/cli';
import { waitUntil } from '../../helpers/wait';

const SCRIPT = 'permission';
const ASK = 'ASK-PERMISSION: edit the readme';

interface QuestionView {
  id: string;
  kind: string;
  state: string;
  closed_reason: string | null;
  questions: { id: string; prompt: string; options?: { label: string; description?: string }[] }[];
}

async function launch(
  cleanup: Cleanup,
  policy: string | undefined,
  extra: Parameters<typeof launchAgentSession>[2] = {},
) {
  return launchAgentSession(cleanup, SCRIPT, { permissionPolicy: policy, ...extra });
}

/** Posts the asking prompt and waits for its turn to finish; returns the agent's replies. */
async function outcomeOf(s: AgentSessionSetup, prompt = ASK): Promise<string[]> {
  const before = (await s.runtime.prompts(s.session.session_id)).length;
  await s.runtime.postPrompt(s.session.session_id, prompt);
  await s.runtime.waitForDrained(s.session.session_id, before + 1);
  return s.runtime.agentReplies(s.taskId);
}

async function questionsOf(s: AgentSessionSetup, state?: string): Promise<QuestionView[]> {
  const query = state === undefined ? `task_id=${s.taskId}` : `task_id=${s.taskId}&state=${state}`;
  const listed = await s.runtime.api.request<{ questions: QuestionView[] }>('GET', `/api/questions?${query}`);
  return listed.body.questions;
}

function pendingQuestion(s: AgentSessionSetup): Promise<QuestionView> {
  return waitUntil(async () => (await questionsOf(s, 'pending'))[0], {
    timeoutMs: 20_000,
    logs: s.backend.logs,
    what: 'a pending permission question',
  });
}

describe('permission policy: the scripted agent asks for permission', () => {
  const cleanup = useCleanup();

  test('allow_all: agentctl allows once; no question is asked', async () => {
    const s = await launch(cleanup, 'allow_all');
    expect(s.session.launch_config).toMatchObject({ agent: { permissionPolicy: 'allow_all' } });
    expect(await outcomeOf(s)).toContain('permission outcome: allow-once');
    // Barrier: the turn above ended after the request was answered.
    expect(await questionsOf(s)).toEqual([]);
  });

  test('deny_all: agentctl rejects once; no question is asked', async () => {
    const s = await launch(cleanup, 'deny_all');
    expect(await outcomeOf(s)).toContain('permission outcome: reject-once');
    expect(await questionsOf(s)).toEqual([]);
  });

  test('ask (the default): an operator question with the agent options; "Allow always" is remembered by kandev', async () => {
    const s = await launch(cleanup, undefined);
    const turn = outcomeOf(s);
    const question = await pendingQuestion(s);
    expect(question).toMatchObject({
      kind: 'permission',
      state: 'pending',
      questions: [
        {
          id: 'permission',
          prompt: expect.stringContaining('Write README.md (edit)') as unknown,
          options: [
            { label: 'Allow once', description: 'allow_once' },
            { label: 'Allow always', description: 'allow_always' },
            { label: 'Reject', description: 'reject_once' },
          ],
        },
      ],
    });
    const task = await s.runtime.api.request<{ pending_action: string | null }>('GET', `/api/tasks/${s.taskId}`);
    expect(task.body.pending_action).toBe('clarification');

    const answered = await s.runtime.api.request('POST', `/api/questions/${question.id}/answer`, {
      answers: [{ question_index: 0, option: 'Allow always' }],
    });
    expect(answered).toMatchObject({ status: 200, body: { state: 'answered', delivery: { to: 'waiting_call' } } });
    // The agent is told allow_once, so it stores no rule of its own (outside the task workspace).
    expect(await turn).toEqual(['permission outcome: allow-once']);
    const after = await s.runtime.api.request<{ pending_action: string | null }>('GET', `/api/tasks/${s.taskId}`);
    expect(after.body.pending_action).toBeNull();
    const grants = await s.runtime.api.request<{ permission_grants: unknown[] }>(
      'GET',
      `/api/tasks/${s.taskId}/permission-grants`,
    );
    expect(grants.body.permission_grants).toEqual([
      expect.objectContaining({ tool_kind: 'edit', title: 'Write README.md', granted_by: 'operator' }),
    ]);

    // A later turn asks for the same action: allowed once at once; the turn completes with no new question.
    expect(await outcomeOf(s)).toEqual(['permission outcome: allow-once', 'permission outcome: allow-once']);
    expect(await questionsOf(s)).toEqual([expect.objectContaining({ id: question.id, state: 'answered' })]);

    // Revoked with the CLI: the next identical request is asked again.
    const kandev = { url: s.backend.ready.url, token: s.backend.apiToken };
    const [grant] = await cliJson<{ id: string }[]>(kandev, ['grants', s.taskId]);
    expect(await runCli(kandev, ['grants', 'revoke', s.taskId, grant!.id])).toMatchObject({ code: 0 });
    expect(await cliJson<unknown[]>(kandev, ['grants', s.taskId])).toEqual([]);
    const third = outcomeOf(s);
    const again = await pendingQuestion(s);
    await s.runtime.api.request('POST', `/api/questions/${again.id}/answer`, {
      answers: [{ question_index: 0, option: 'Reject' }],
    });
    expect((await third).at(-1)).toBe('permission outcome: reject-once');
  });

  test('ask answered "Reject": the agent gets reject_once', async () => {
    const s = await launch(cleanup, 'ask');
    const turn = outcomeOf(s);
    const question = await pendingQuestion(s);
    await s.runtime.api.request('POST', `/api/questions/${question.id}/answer`, {
      answers: [{ question_index: 0, option: 'Reject' }],
    });
    expect(await turn).toContain('permission outcome: reject-once');
  });

  test('ask unanswered within KANDEV_PERMISSION_TIMEOUT_MS: the question expires and the agent gets reject', async () => {
    const s = await launch(cleanup, 'ask', { env: { KANDEV_PERMISSION_TIMEOUT_MS: '300' } });
    expect(await outcomeOf(s)).toContain('permission outcome: reject-once');
    const [question] = await questionsOf(s);
    expect(question).toMatchObject({ kind: 'permission', state: 'expired', closed_reason: 'timeout' });
    const late = await s.runtime.api.request('POST', `/api/questions/${question!.id}/answer`, {
      answers: [{ question_index: 0, option: 'Allow once' }],
    });
    expect(late.status).toBe(409);
  });

  test('ask, session stopped while the question waits: the question closes session_stopped', async () => {
    const s = await launch(cleanup, 'ask');
    await s.runtime.postPrompt(s.session.session_id, ASK);
    const question = await pendingQuestion(s);
    await s.runtime.stop(s.session.session_id);
    const closed = await s.runtime.api.request<QuestionView>('GET', `/api/questions/${question.id}`);
    expect(closed.body).toMatchObject({ state: 'cancelled', closed_reason: 'session_stopped' });
  });

  test('ask on an autopilot root: nobody to ask, rejected at once without a question', async () => {
    const s = await launch(cleanup, 'ask', { task: { autopilot: true } });
    expect(s.session.launch_config).toMatchObject({ question_capability: 'none' });
    expect(await outcomeOf(s)).toContain('permission outcome: reject-once');
    expect(await questionsOf(s)).toEqual([]);
  });

  test('ask on an autopilot child: a parent question; the parent replies "Allow always", the agent gets allow_once', async () => {
    const world = await AutopilotWorld.start(cleanup);
    const parentTask = await world.task({ title: 'Docs epic' });
    const childTask = await world.task({ title: 'Readme', parent_id: parentTask.id, autopilot: true, script: SCRIPT });
    const parent = await world.launch(parentTask.id, { agent: false });
    const child = await world.launch(childTask.id, { agent: true });
    expect(child.session.launch_config.question_capability).toBe('parent');
    const parentMcp = await world.mcp(parent);

    const posted = await world.runtime.postPrompt(child.sessionId, ASK);
    const question = await world.waitForQuestion(childTask.id, 'pending');
    expect(JSON.stringify(question)).toContain('Write README.md (edit)');
    // Nobody asked the operator.
    const operator = await world.api.request<{ questions: unknown[] }>('GET', `/api/questions?task_id=${childTask.id}`);
    expect(operator.body.questions).toEqual([]);

    const replied = await answerOverMcp(parentMcp, childTask.id, question.id, 'Allow always');
    expect(replied.isError).toBeFalsy();
    await world.runtime.waitForPrompts(
      child.sessionId,
      (prompts) => prompts.find((p) => p.id === posted.queued_prompt_id)?.status === 'completed',
      'the asking turn completed',
    );
    expect(await world.runtime.agentReplies(childTask.id)).toContain('permission outcome: allow-once');
    expect(await world.runtime.agentReplies(childTask.id)).not.toContain('permission outcome: allow-always');
    expect((await world.waitForQuestion(childTask.id, 'answered')).id).toBe(question.id);
    const grants = await world.api.request<{ permission_grants: unknown[] }>(
      'GET',
      `/api/tasks/${childTask.id}/permission-grants`,
    );
    expect(grants.body.permission_grants).toEqual([
      expect.objectContaining({ title: 'Write README.md', granted_by: `task:${parentTask.id}` }),
    ]);
  });
});
