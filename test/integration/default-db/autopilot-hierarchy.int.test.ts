// Two levels of autopilot, black box: an autopilot grandchild asks its autopilot parent (one hop); that
// parent relays its own, separate question to the normal root; the root asks the operator
// (ask_user_question_kandev, answered over REST), and the answers flow back down hop by hop, each with its
// own question id. All three run the scripted test agent; the ids they need exist only at run time, so
// the scripts capture them from the prompts the backend queues and from tool results.
import { AutopilotWorld, MESSAGE_TASK } from '../../helpers/autopilot';
import { useCleanup } from '../../helpers/cleanup';
import { RUNTIME_TIMEOUT_MS } from '../../helpers/agent-runtime';
import { waitUntil } from '../../helpers/wait';

interface OperatorQuestion {
  id: string;
  task_id: string;
  state: string;
  questions: { id: string; prompt: string }[];
}

describe('autopilot: a two-level hierarchy', () => {
  const cleanup = useCleanup();

  test('grandchild -> child -> root -> operator, and the answers back down, hop by hop with separate question ids', async () => {
    const world = await AutopilotWorld.start(cleanup);
    const root = await world.task({ title: 'Data platform', script: 'autopilot-root' });
    const middle = await world.task({
      title: 'Importer',
      parent_id: root.id,
      autopilot: true,
      script: 'autopilot-middle',
    });
    const leaf = await world.task({
      title: 'Importer storage',
      parent_id: middle.id,
      autopilot: true,
      script: 'autopilot-child',
    });
    const rootSession = await world.launch(root.id, { agent: true });
    const middleSession = await world.launch(middle.id, { agent: true });
    const leafSession = await world.launch(leaf.id, { agent: true });
    expect([rootSession, middleSession, leafSession].map((s) => s.session.launch_config.question_capability)).toEqual([
      'user',
      'parent',
      'parent',
    ]);

    await world.runtime.postPrompt(leafSession.sessionId, 'ASK-PARENT: decide the storage engine');

    // Hop 1: the leaf's question goes to its direct parent only.
    const leafQuestion = await world.waitForQuestion(leaf.id, 'pending');
    expect(leafQuestion).toMatchObject({ parent_task_id: middle.id });
    // Hop 2: the middle relays its own question (a new id) to the root, which asks the operator.
    const middleQuestion = await world.waitForQuestion(middle.id, 'pending');
    expect(middleQuestion).toMatchObject({ parent_task_id: root.id });
    expect(middleQuestion.id).not.toBe(leafQuestion.id);
    expect(await world.getTask(leaf.id)).toMatchObject({ pending_action: 'clarification' });
    expect(await world.getTask(middle.id)).toMatchObject({ pending_action: 'clarification' });

    const operatorQuestion = await waitUntil(
      async () => {
        const listed = await world.api.request<{ questions: OperatorQuestion[] }>(
          'GET',
          '/api/questions?state=pending',
        );
        return listed.body.questions.length === 1 ? listed.body.questions[0] : undefined;
      },
      { timeoutMs: RUNTIME_TIMEOUT_MS, logs: world.logs, what: 'the root to ask the operator' },
    );
    expect(operatorQuestion).toMatchObject({ task_id: root.id, questions: [{ id: 'engine' }] });
    expect(operatorQuestion.questions[0]!.prompt).toContain('ROOT-Q');

    // Nothing skipped a level: the root saw only the middle's question, the middle only the leaf's.
    const rootPrompts = await world.prompts(rootSession.sessionId);
    expect(rootPrompts).toHaveLength(1);
    expect(rootPrompts[0]!.prompt).toContain(middleQuestion.id);
    expect(rootPrompts[0]!.prompt).not.toContain(leafQuestion.id);
    expect(rootPrompts[0]!.prompt).not.toContain('LEAF-Q');
    const middlePrompts = await world.prompts(middleSession.sessionId);
    expect(middlePrompts).toHaveLength(1);
    expect(middlePrompts[0]!.prompt).toContain(leafQuestion.id);

    const answered = await world.api.request('POST', `/api/questions/${operatorQuestion.id}/answer`, {
      answers: [{ question_index: 0, option: 'Postgres' }],
    });
    expect(answered).toMatchObject({ status: 200, body: { state: 'answered' } });

    // Back down: root -> middle (its question id), middle -> leaf (the leaf's question id).
    const leafPrompts = await world.runtime.waitForDrained(leafSession.sessionId, 2);
    const leafAnswer = leafPrompts[1]!;
    expect(leafAnswer.prompt).toContain('MID-ANSWER: Postgres');
    expect(leafAnswer.prompt).toContain(leafQuestion.id);
    expect(await world.runtime.agentReplies(leaf.id)).toEqual([
      '#0 asked my parent; ending my turn.',
      `#1 got: ${leafAnswer.prompt}`,
    ]);
    expect(await world.runtime.agentReplies(middle.id)).toEqual([
      `#0 asked my own parent about ${leafQuestion.id}`,
      `#1 relayed Postgres to ${leaf.id} for ${leafQuestion.id}`,
    ]);
    expect(await world.runtime.agentReplies(root.id)).toEqual([`#0 answered ${middleQuestion.id} with Postgres`]);

    const middleAnswers = (await world.prompts(middleSession.sessionId)).filter((p) =>
      p.prompt.includes('ROOT-ANSWER'),
    );
    expect(middleAnswers).toHaveLength(1);
    expect(middleAnswers[0]!.prompt).toContain(middleQuestion.id);
    expect((await world.parentQuestions(leaf.id)).map((q) => [q.id, q.status])).toEqual([
      [leafQuestion.id, 'answered'],
    ]);
    expect((await world.parentQuestions(middle.id)).map((q) => [q.id, q.status])).toEqual([
      [middleQuestion.id, 'answered'],
    ]);
    await world.waitForPendingAction(leaf.id, null);
    await world.waitForPendingAction(middle.id, null);
    // Each answer was accepted the first time (one call per hop, none rejected).
    for (const task of [root, middle]) {
      const calls = await world.waitForToolCalls(task.id, MESSAGE_TASK, 1);
      expect(calls.map((c) => c.metadata.status)).toEqual(['completed']);
    }
    // Only the root ever asked the operator.
    const all = await world.api.request<{ questions: OperatorQuestion[] }>('GET', '/api/questions');
    expect(all.body.questions.map((q) => q.task_id)).toEqual([root.id]);
  });
});
