// `kandev launch` with the scripted test agent, `kandev questions` and `kandev answer`: by --option in a
// script, and with the arrow-key picker under a real pseudo-terminal (util-linux `script`). The agent's
// held ask_user_question_kandev call gets the chosen option and the agent replies with it.
import { ASK_PARENT, ASK_USER, AutopilotWorld } from '../../helpers/autopilot';
import { AgentRuntimeApi, agentScript, TEST_AGENT_MAIN, waitForAgentReady } from '../../helpers/agent-runtime';
import { BackendApi } from '../../helpers/backend-api';
import { type CliEnv, cliJson, runCli, startCliInTerminal } from '../../helpers/cli';
import { useCleanup } from '../../helpers/cleanup';
import { startBackend, stopProcess } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

interface PendingQuestions {
  questions: { id: string; task_id: string; questions: { prompt: string; options: { label: string }[] }[] }[];
  parent_questions: unknown[];
}

describe('kandev questions and answer', () => {
  const cleanup = useCleanup();

  /** A backend, a task whose profile runs the test agent (test/fixtures/agent-scripts/cli.json), launched by the CLI. */
  async function agentTask() {
    const daemon = await startBackend(cleanup);
    cleanup.defer(() => stopProcess(daemon.child, { graceMs: 10_000 }));
    const kandev: CliEnv = { url: daemon.ready.url, token: daemon.apiToken };
    const runtime = new AgentRuntimeApi(new BackendApi(daemon.ready.url, daemon.apiToken), cleanup, daemon.logs);
    await cliJson(kandev, ['workspaces', 'create', 'demo']);
    const profile = await cliJson<{ id: string }>(kandev, [
      'profiles',
      'create',
      'test agent',
      '--command',
      process.execPath,
      ...['--arg', TEST_AGENT_MAIN, '--arg', '--script', '--arg', agentScript('cli')],
    ]);
    const task = await cliJson<{ id: string }>(kandev, ['tasks', 'create', 'Importer', '--profile', profile.id]);
    const launched = await cliJson<{ session_id: string; launch_config: { agent: { command: string } } }>(kandev, [
      'launch',
      task.id,
      '--executor',
      'local',
    ]);
    expect(launched.launch_config.agent.command).toBe(process.execPath);
    await waitForAgentReady(runtime, launched.session_id);
    return { kandev, runtime, taskId: task.id, sessionId: launched.session_id, logs: daemon.logs };
  }

  /** Prompts the agent to ask; resolves the pending question's id once `kandev questions` lists it. */
  async function askQuestion(env: Awaited<ReturnType<typeof agentTask>>): Promise<string> {
    const prompt = await runCli(env.kandev, ['prompt', env.sessionId, 'ASK about storage']);
    expect(prompt.code).toBe(0);
    const pending = await waitUntil(
      async () => (await cliJson<PendingQuestions>(env.kandev, ['questions'])).questions[0],
      { timeoutMs: 20_000, intervalMs: 100, logs: env.logs, what: 'the agent’s question to be listed' },
    );
    expect(pending).toMatchObject({ task_id: env.taskId, questions: [{ prompt: 'Which database?' }] });
    return pending.id;
  }

  async function waitForReply(env: Awaited<ReturnType<typeof agentTask>>, reply: string): Promise<void> {
    await waitUntil(async () => (await env.runtime.agentReplies(env.taskId)).includes(reply), {
      timeoutMs: 20_000,
      intervalMs: 100,
      logs: env.logs,
      what: `the agent to reply "${reply}"`,
    });
  }

  test('questions lists it; answer without a terminal or option is a usage error; --option answers it', async () => {
    const env = await agentTask();
    const questionId = await askQuestion(env);
    const listed = await runCli(env.kandev, ['questions']);
    expect(listed.stdout.split('\n')[0]).toBe('operator questions: 1 pending, 0 answered, 0 expired, 0 cancelled');
    expect(listed.stdout).toContain(`${questionId}  operator question, task ${env.taskId}`);
    expect(listed.stdout).toMatch(/1\) Which database\?\n +1\. SQLite\n +2\. Postgres — the server one\n/);

    const noTerminal = await runCli(env.kandev, ['answer', questionId]);
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toMatch(/needs --option/);
    const wrong = await runCli(env.kandev, ['answer', questionId, '--option', 'Oracle']);
    expect(wrong.code).toBe(2);

    const answered = await runCli(env.kandev, ['answer', questionId, '--option', 'postgres']);
    expect(answered).toMatchObject({ code: 0, stderr: '' });
    expect(answered.stdout).toBe(`answered ${questionId}: Postgres (delivered to the waiting agent)\n`);
    await waitForReply(env, 'You chose Postgres.');
    expect((await cliJson<PendingQuestions>(env.kandev, ['questions'])).questions).toEqual([]);
    // The counts cover every state; `questions ls` is the same list.
    const counts = { pending: 0, answered: 1, expired: 0, cancelled: 0 };
    expect(await cliJson<PendingQuestions>(env.kandev, ['questions', 'ls'])).toMatchObject({ counts });
    expect((await runCli(env.kandev, ['questions', 'ls'])).stdout).toBe(
      'operator questions: 0 pending, 1 answered, 0 expired, 0 cancelled\nno pending questions\n',
    );

    const again = await runCli(env.kandev, ['answer', questionId, '--option', '1']);
    expect(again.code).toBe(5);
    expect(again.stderr).toMatch(/is answered, not pending/);
  });

  test('the picker under a pseudo-terminal: arrow down, Enter chooses the second option', async () => {
    const env = await agentTask();
    const questionId = await askQuestion(env);
    const picker = startCliInTerminal(cleanup, env.kandev, ['answer', questionId]);
    await picker.waitFor('❯ 1. SQLite', 'the picker on the first option');
    picker.write('\u001b[B');
    await picker.waitFor(/❯ 2\. Postgres/, 'the picker on the second option');
    picker.write('\r');
    await picker.waitFor(`answered ${questionId}: Postgres`, 'the answer to be sent');
    expect(await picker.exited).toBe(0);
    // A terminal gets colour (piped output never does: cli-commands).
    expect(picker.text()).toContain('\u001b[36m❯ 2. Postgres');

    const recorded = await env.runtime.api.request<{ state: string; answers: { option?: string }[] }>(
      'GET',
      `/api/questions/${questionId}`,
    );
    expect(recorded.body).toMatchObject({ state: 'answered', answers: [{ option: 'Postgres' }] });
    await waitForReply(env, 'You chose Postgres.');
  });

  test('a pending parent question is listed; answer refuses it (the parent task’s agent answers it)', async () => {
    const world = await AutopilotWorld.start(cleanup);
    const kandev: CliEnv = { url: world.backend.ready.url, env: { KANDEV_DATA_DIR: world.backend.dataDir } };
    const parent = await world.task({ title: 'Parent' });
    const child = await world.task({ title: 'Child', parent_id: parent.id, autopilot: true });
    await world.launch(parent.id, { agent: false });
    const mcp = await world.mcp(await world.launch(child.id, { agent: false }));
    await mcp.client.callTool({
      name: ASK_PARENT,
      arguments: {
        questions: [{ prompt: 'Which queue?', options: [{ label: 'Redis' }, { label: 'SQS' }] }],
        context: 'The importer needs one.',
        blocked_reason: 'I cannot pick it on my own.',
      },
    });
    const pending = await cliJson<PendingQuestions & { parent_questions: { id: string; child_task_id: string }[] }>(
      kandev,
      ['questions'],
    );
    expect(pending.questions).toEqual([]);
    expect(pending.parent_questions).toEqual([expect.objectContaining({ child_task_id: child.id, status: 'pending' })]);
    const questionId = pending.parent_questions[0]?.id ?? '';
    const listed = await runCli(kandev, ['questions']);
    expect(listed.stdout).toContain(`${questionId}  parent question, task ${child.id} asks ${parent.id}`);
    expect(listed.stdout).toMatch(/1\) Which queue\?\n +1\. Redis\n +2\. SQS\n/);

    const refused = await runCli(kandev, ['answer', questionId, '--option', 'Redis']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is a question to the parent task .*its agent answers it/);
    expect((await world.parentQuestions(child.id))[0]?.status).toBe('pending');
  });

  test('answer --text answers a free-text question; the held MCP call returns it', async () => {
    const world = await AutopilotWorld.start(cleanup);
    const kandev: CliEnv = { url: world.backend.ready.url, env: { KANDEV_DATA_DIR: world.backend.dataDir } };
    const task = await world.task({ title: 'Importer' });
    const mcp = await world.mcp(await world.launch(task.id, { agent: false }));
    const asked = mcp.client.callTool(
      { name: ASK_USER, arguments: { questions: [{ prompt: 'Name the queue' }, { prompt: 'How many workers?' }] } },
      undefined,
      { timeout: 60_000 },
    ) as Promise<{ content: { text: string }[] }>;
    const question = await waitUntil(
      async () => (await cliJson<PendingQuestions>(kandev, ['questions'])).questions[0],
      { timeoutMs: 20_000, intervalMs: 100, logs: world.logs, what: 'the question to be listed' },
    );
    expect((await runCli(kandev, ['answer', question.id, '--text', 'imports'])).stderr).toMatch(/needs --text/);
    const answered = await runCli(kandev, ['answer', question.id, '--text', 'imports', '--text', 'four']);
    expect(answered).toMatchObject({ code: 0, stderr: '' });
    expect(answered.stdout).toBe(`answered ${question.id}: imports; four (delivered to the waiting agent)\n`);
    const text = (await asked).content.map((part) => part.text).join('\n');
    expect(text).toContain('Name the queue -> imports');
    expect(text).toContain('How many workers? -> four');
  });
});
