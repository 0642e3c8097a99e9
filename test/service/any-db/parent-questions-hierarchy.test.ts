// Parent questions across levels and reparenting, at service level: an autopilot grandchild asks its
// direct parent (an autopilot child), which relays its own separate question to the normal root, which
// asks the operator; the answers come back down hop by hop with separate question ids. A reparented
// child's question can be answered by its new parent only.
import { useCleanup } from '../../helpers/cleanup';
import { ASK_PARENT, createParentQuestionHarness, MESSAGE_TASK, question } from '../../helpers/parent-question-harness';
import { refusal } from '@kandev/backend/testing';
import { waitUntil } from '../../helpers/wait';

describe('parent questions: a two-level hierarchy', () => {
  const cleanup = useCleanup();

  test('grandchild -> child -> root -> operator, and the answers back down, one hop and one turn each', async () => {
    const h = await createParentQuestionHarness(cleanup);
    const f = await h.family({ grandchild: true });
    const [rootS, childS, leafS] = [f.rootSession!, f.childSession, f.grandchildSession!];
    const leaf = f.grandchild!;
    const capabilities = await Promise.all(
      [rootS, childS, leafS].map(
        async (id) => (await h.uow.read.sessions.findById(id))?.launchConfig.questionCapability,
      ),
    );
    expect(capabilities).toEqual(['user', 'parent', 'parent']);

    // Hop 1: the grandchild asks; only its direct parent (the child) gets the prompt.
    await h.turn(leafS, 'build the importer');
    const leafAsk = h.structured(await h.call(leafS, ASK_PARENT, question('LEAF-Q Which database?', 'importer')));
    h.agentctl.finishTurn(leafS);
    expect(leafAsk).toMatchObject({ parent_task_id: f.child, status: 'waiting_for_parent' });
    const leafQ = leafAsk.question_id as string;
    await h.untilPromptRuns(childS, new RegExp(`question_id: ${leafQ}`));

    // Hop 2: the child cannot decide; it relays its own question (a new id) to the root and ends its turn.
    const childAsk = h.structured(
      await h.call(childS, ASK_PARENT, question('MID-Q Which engine do we standardise on?', 'the importer asks')),
    );
    h.agentctl.finishTurn(childS);
    expect(childAsk).toMatchObject({ parent_task_id: f.root, status: 'waiting_for_parent' });
    const childQ = childAsk.question_id as string;
    expect(childQ).not.toBe(leafQ);
    await h.untilPromptRuns(rootS, new RegExp(`question_id: ${childQ}`));
    expect((await h.tasks.get(leaf)).pendingAction).toBe('clarification');
    expect((await h.tasks.get(f.child)).pendingAction).toBe('clarification');
    // Nothing skipped a level.
    const rootQueue = await h.queue(rootS);
    expect(rootQueue).toHaveLength(1);
    expect(rootQueue[0]?.prompt).not.toContain(leafQ);

    // The root is a normal task: it asks the operator (the call waits) and then answers the child.
    const operatorCall = h.call(rootS, 'ask_user_question_kandev', {
      questions: [
        { id: 'engine', prompt: 'ROOT-Q Postgres or SQLite?', options: [{ label: 'Postgres' }, { label: 'SQLite' }] },
      ],
    });
    const pending = await waitUntil(async () => (await h.questions.list({ state: 'pending' })).questions[0], {
      timeoutMs: 5_000,
      what: 'the root to ask the operator',
    });
    expect((await h.tasks.get(f.root)).pendingAction).toBe('clarification');
    await h.questions.answer(pending.id, { answers: [{ question_index: 0, option: 'Postgres' }] });
    expect((await operatorCall).structured).toMatchObject({ status: 'answered' });
    const toChild = await h.call(rootS, MESSAGE_TASK, {
      task_id: f.child,
      prompt: 'Postgres',
      reply_to_question_id: childQ,
    });
    expect(h.structured(toChild)).toMatchObject({ status: 'answered' });
    h.agentctl.finishTurn(rootS);

    // Back down: the child's answer turn, then the child answers the grandchild's question.
    await h.untilPromptRuns(childS, new RegExp(`kandev answer to ${childQ}`));
    const toLeaf = await h.call(childS, MESSAGE_TASK, {
      task_id: leaf,
      prompt: 'Postgres (from the root)',
      reply_to_question_id: leafQ,
    });
    expect(h.structured(toLeaf)).toMatchObject({ status: 'answered', question_id: leafQ });
    h.agentctl.finishTurn(childS);
    const leafAnswer = await h.untilPromptRuns(leafS, new RegExp(`kandev answer to ${leafQ}`));
    h.agentctl.finishTurn(leafS);
    await Promise.all([leafS, childS, rootS].map((id) => h.untilDrained(id)));

    const answers = (id: string) => h.deliveredTo(id).filter((d) => /kandev answer to/.test(d.text));
    expect(answers(leafS).map((d) => d.promptId)).toEqual([leafAnswer]);
    expect(answers(leafS)[0]?.text).toContain(`(task ${f.child}) answered your question ${leafQ}`);
    expect(answers(childS)).toHaveLength(1);
    expect(answers(rootS)).toEqual([]);
    expect(await h.db('parent_questions').orderBy('created_at')).toMatchObject([
      { id: leafQ, child_task_id: leaf, parent_task_id: f.child, status: 'answered', answered_by_task_id: f.child },
      { id: childQ, child_task_id: f.child, parent_task_id: f.root, status: 'answered', answered_by_task_id: f.root },
    ]);
    for (const id of [leaf, f.child, f.root]) expect((await h.tasks.get(id)).pendingAction).toBeNull();
  });
});

describe('parent questions: reparenting while the child waits', () => {
  const cleanup = useCleanup();

  test('the old parent can no longer answer; the new parent can, with the same question id', async () => {
    const h = await createParentQuestionHarness(cleanup);
    const f = await h.family();
    const newParent = await h.agentTask({ workspaceId: f.workspaceId });
    const newParentS = await h.launch(newParent);
    await h.turn(f.childSession, 'work');
    const id = h.structured(await h.call(f.childSession, ASK_PARENT, question())).question_id as string;
    h.agentctl.finishTurn(f.childSession);
    await h.untilPromptRuns(f.rootSession!, new RegExp(id));

    await h.tasks.update(f.child, { parent_id: newParent });
    const snapshot = async () => ({
      queue: await h.db('prompt_queue').select(),
      delivered: h.agentctl.delivered.length,
    });
    const before = await snapshot();
    const fromOld = await refusal(
      h.call(f.rootSession!, MESSAGE_TASK, { task_id: f.child, prompt: 'SQLite', reply_to_question_id: id }),
    );
    expect(fromOld.code).toBe('permission_denied');
    expect(await snapshot()).toEqual(before);
    expect(await h.db('parent_questions')).toMatchObject([{ id, status: 'pending', parent_task_id: f.root }]);
    expect((await h.tasks.get(f.child)).pendingAction).toBe('clarification');

    // No automatic re-delivery: the new parent finds the pending question in the child's conversation.
    const conversation = await h.call(newParentS, 'get_task_conversation_kandev', { task_id: f.child });
    expect(conversation.text).toContain(`(question ${id}; blocked:`);

    const fromNew = await h.call(newParentS, MESSAGE_TASK, {
      task_id: f.child,
      prompt: 'Postgres',
      reply_to_question_id: id,
    });
    expect(h.structured(fromNew)).toMatchObject({ status: 'answered', question_id: id });
    const answerTurn = await h.untilPromptRuns(f.childSession, /kandev answer to/);
    expect(h.deliveredTo(f.childSession).find((d) => d.promptId === answerTurn)?.text).toContain(`(task ${newParent})`);
    h.agentctl.finishTurn(f.childSession);
    await h.untilDrained(f.childSession);
    expect(await h.db('parent_questions')).toMatchObject([{ id, status: 'answered', answered_by_task_id: newParent }]);
  });
});
