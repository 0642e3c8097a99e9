// The parent-question lifecycle at service level: the real drainer with the parent-question gate, the
// tool handlers, session events from the fake agentctl; the test plays both agents. One
// accepted answer => exactly one child turn, also under 20 concurrent identical replies.
import { useCleanup } from '../../helpers/cleanup';
import {
  ASK_PARENT,
  createParentQuestionHarness,
  MESSAGE_TASK,
  type ParentQuestionHarness,
  question,
} from '../../helpers/parent-question-harness';
import { jsonColumn, refusal } from '@kandev/backend/testing';

/** The child asks during a turn, then ends it; resolves the question id (the parent's turn runs it). */
async function childAsks(h: ParentQuestionHarness, f: { childSession: string }): Promise<string> {
  await h.turn(f.childSession, 'work on storage');
  const asked = await h.call(f.childSession, ASK_PARENT, question());
  h.agentctl.finishTurn(f.childSession, { text: 'asked my parent; ending my turn' });
  await h.untilState(f.childSession, 'waiting_for_input');
  return h.structured(asked).question_id as string;
}

/** Everything a rejected reply must leave alone: the queues, the questions, what reached agents. */
async function sideEffects(h: ParentQuestionHarness) {
  return {
    queue: await h.db('prompt_queue').select().orderBy('seq'),
    questions: await h.db('parent_questions').select().orderBy('id'),
    messages: await h.db('messages').select().orderBy('seq'),
    delivered: h.agentctl.delivered.length,
  };
}

describe('parent questions: ask, gate, answer', () => {
  const cleanup = useCleanup();

  test('the answer is exactly one child turn, delivered before prompts queued earlier; a retry is already_answered', async () => {
    const h = await createParentQuestionHarness(cleanup);
    const f = await h.family();
    const first = await h.turn(f.childSession, 'work on storage');
    const followUp = await h.prompt(f.childSession, 'ordinary follow-up'); // queued BEFORE the question
    const asked = await h.call(f.childSession, ASK_PARENT, question());
    const id = h.structured(asked).question_id as string;
    expect(h.structured(asked)).toMatchObject({ parent_task_id: f.root, status: 'waiting_for_parent' });
    h.agentctl.finishTurn(f.childSession);

    // Gated: the child waits for input, its follow-up stays queued, the indicator is on.
    const toParent = await h.untilPromptRuns(f.rootSession!, /kandev parent question/);
    await h.untilState(f.childSession, 'waiting_for_input');
    await h.turns.drainer.kick(f.childSession); // a kick changes nothing while it waits
    expect((await h.uow.read.promptQueue.findById(followUp))?.status).toBe('queued');
    expect((await h.tasks.get(f.child)).pendingAction).toBe('clarification');
    expect((await h.tasks.get(f.root)).pendingAction).toBeNull();

    // The parent's prompt: who asks, the exact question and options, the id, the exact reply shape.
    const parentText = h.deliveredTo(f.rootSession!).find((d) => d.promptId === toParent)?.text ?? '';
    expect(parentText).toContain(`(task ${f.child}, session ${f.childSession})`);
    expect(parentText).toContain('1. [db] Which database?\n   Options: "SQLite" | "Postgres"');
    expect(parentText).toContain(`question_id: ${id}`);
    expect(parentText).toContain(`{"task_id":"${f.child}","reply_to_question_id":"${id}"`);

    const answered = await h.call(f.rootSession!, MESSAGE_TASK, {
      task_id: f.child,
      prompt: 'Use Postgres.',
      reply_to_question_id: id,
    });
    expect(h.structured(answered)).toMatchObject({ status: 'answered', question_id: id, session_id: f.childSession });
    h.agentctl.finishTurn(f.rootSession!);

    const answerTurn = await h.untilPromptRuns(f.childSession, /kandev answer to/);
    expect((await h.uow.read.promptQueue.findById(followUp))?.status).toBe('queued');
    const answerText = h.deliveredTo(f.childSession).find((d) => d.promptId === answerTurn)?.text ?? '';
    expect(answerText).toContain(`(task ${f.root}) answered your question ${id}:\n\nUse Postgres.`);
    h.agentctl.finishTurn(f.childSession);
    await h.untilRunning(f.childSession, followUp);
    h.agentctl.finishTurn(f.childSession);
    await h.untilDrained(f.childSession);
    expect(h.deliveredTo(f.childSession).map((d) => d.promptId)).toEqual([first, answerTurn, followUp]);

    // The accepted reply again: already_answered, nothing delivered.
    const before = await sideEffects(h);
    const retried = await h.call(f.rootSession!, MESSAGE_TASK, {
      task_id: f.child,
      prompt: 'Use Postgres.',
      reply_to_question_id: id,
    });
    expect(h.structured(retried)).toMatchObject({ status: 'already_answered', question_id: id });
    expect(await sideEffects(h)).toEqual(before);

    // The record, the child's conversation and the indicator.
    expect(await h.db('parent_questions')).toMatchObject([
      {
        id,
        status: 'answered',
        answer: 'Use Postgres.',
        answered_by_task_id: f.root,
        answered_by_session_id: f.rootSession,
        answer_prompt_id: answerTurn,
      },
    ]);
    const entries = await h
      .db('messages')
      .where({ task_id: f.child })
      .whereIn('type', ['parent_question', 'parent_answer']);
    expect(entries).toMatchObject([
      { type: 'parent_question', author: 'agent' },
      { type: 'parent_answer', author: `task:${f.root}` },
    ]);
    expect(jsonColumn(entries[0].metadata)).toMatchObject({
      status: 'answered',
      answered_at: expect.any(String),
    });
    expect((await h.tasks.get(f.child)).pendingAction).toBeNull();
  });

  test('20 concurrent identical replies: one answered, 19 already_answered, one answer prompt, one child turn', async () => {
    const h = await createParentQuestionHarness(cleanup);
    const f = await h.family();
    const id = await childAsks(h, f);
    const reply = () =>
      h.call(f.rootSession!, MESSAGE_TASK, { task_id: f.child, prompt: 'Use Postgres.', reply_to_question_id: id });
    const results = await Promise.all(Array.from({ length: 20 }, reply));
    const statuses = results.map((r) => h.structured(r).status);
    expect(statuses.filter((s) => s === 'answered')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'already_answered')).toHaveLength(19);

    const answerTurn = await h.untilPromptRuns(f.childSession, /kandev answer to/);
    h.agentctl.finishTurn(f.childSession);
    await h.untilDrained(f.childSession);
    const answers = (await h.queue(f.childSession)).filter((p) => p.priority === 'answer');
    expect(answers.map((p) => p.id)).toEqual([answerTurn]);
    expect(h.agentctl.promptCalls.filter((c) => c.promptId === answerTurn && c.outcome === 'delivered')).toHaveLength(
      1,
    );
    expect(h.deliveredTo(f.childSession).filter((d) => /kandev answer to/.test(d.text))).toHaveLength(1);
    expect(await h.db('messages').where({ task_id: f.child, type: 'parent_answer' })).toHaveLength(1);
  });

  test('rejected, nothing delivered: an unknown question, the wrong child, a sender that is not the parent', async () => {
    const h = await createParentQuestionHarness(cleanup);
    const f = await h.family();
    const sibling = await h.agentTask({ workspaceId: f.workspaceId, parentId: f.root, autopilot: true });
    const siblingSession = await h.launch(sibling);
    const id = await childAsks(h, f);
    // Barrier before the snapshot: the parent's prompt about the question runs in the parent's agent. It
    // is queued, claimed and delivered asynchronously; a snapshot before that would see it land later.
    const parentPrompt = (await h.db('parent_questions'))[0]?.parent_prompt_id as string;
    await h.untilRunning(f.rootSession!, parentPrompt);
    const before = await sideEffects(h);

    const unknown = await refusal(
      h.call(f.rootSession!, MESSAGE_TASK, { task_id: f.child, prompt: 'x', reply_to_question_id: 'nope' }),
    );
    expect(unknown).toMatchObject({ code: 'not_found', message: expect.stringMatching(/no parent question nope/) });
    const wrongChild = await refusal(
      h.call(f.rootSession!, MESSAGE_TASK, { task_id: sibling, prompt: 'x', reply_to_question_id: id }),
    );
    expect(wrongChild).toMatchObject({ code: 'failed_precondition', message: expect.stringMatching(/asked by task/) });
    // The child itself (its own task is in scope) is not its parent.
    const self = await refusal(
      h.call(f.childSession, MESSAGE_TASK, { task_id: f.child, prompt: 'x', reply_to_question_id: id }),
    );
    expect(self).toMatchObject({ code: 'permission_denied', message: expect.stringMatching(/current direct parent/) });
    // A sibling cannot even address the child.
    await refusal(h.call(siblingSession, MESSAGE_TASK, { task_id: f.child, prompt: 'x', reply_to_question_id: id }));
    expect(await sideEffects(h)).toEqual(before);
    expect((await h.db('parent_questions'))[0]).toMatchObject({ status: 'pending' });
  });

  test('an uncorrelated parent message behaves as before and supersedes the question; a late answer is rejected', async () => {
    const h = await createParentQuestionHarness(cleanup);
    const f = await h.family();
    const id = await childAsks(h, f);
    // A note the child queues for itself is no new input from outside: the question stays, the note waits.
    const note = await h.call(f.childSession, MESSAGE_TASK, { task_id: f.child, prompt: 'note to self' });
    expect(h.structured(note)).toMatchObject({ status: 'queued', superseded_question_ids: [] });
    expect(await h.db('parent_questions')).toMatchObject([{ id, status: 'pending' }]);
    const plain = await h.call(f.rootSession!, MESSAGE_TASK, { task_id: f.child, prompt: 'Skip it, use SQLite.' });
    expect(h.structured(plain)).toMatchObject({
      task_id: f.child,
      session_id: f.childSession,
      status: 'queued',
      superseded_question_ids: [id],
    });
    expect(await h.db('parent_questions')).toMatchObject([{ id, status: 'superseded', closed_reason: 'task_message' }]);
    // The gate opened with the supersede: the message is the child's next turn.
    await h.untilRunning(f.childSession, h.structured(note).queued_prompt_id as string);
    h.agentctl.finishTurn(f.childSession);
    const next = await h.untilPromptRuns(f.childSession, /Skip it, use SQLite/);
    expect(next).toBe(h.structured(plain).queued_prompt_id);
    h.agentctl.finishTurn(f.childSession);
    await h.untilDrained(f.childSession);

    const before = await sideEffects(h);
    const late = await refusal(
      h.call(f.rootSession!, MESSAGE_TASK, { task_id: f.child, prompt: 'Postgres', reply_to_question_id: id }),
    );
    expect(late).toMatchObject({ code: 'failed_precondition', message: expect.stringMatching(/superseded/) });
    expect(await sideEffects(h)).toEqual(before);
    expect((await h.tasks.get(f.child)).pendingAction).toBeNull();
  });

  test("an operator's prompt supersedes the question before it is admitted; a late answer is rejected", async () => {
    const h = await createParentQuestionHarness(cleanup);
    const f = await h.family();
    const id = await childAsks(h, f);
    const { queued, superseded } = await h.prompts.enqueue(f.childSession, { prompt: 'Operator: use SQLite.' });
    expect(superseded).toEqual([id]);
    expect(await h.db('parent_questions')).toMatchObject([{ status: 'superseded', closed_reason: 'operator_prompt' }]);
    await h.untilRunning(f.childSession, queued.id);
    h.agentctl.finishTurn(f.childSession);
    await h.untilDrained(f.childSession);

    const before = await sideEffects(h);
    const late = await refusal(
      h.call(f.rootSession!, MESSAGE_TASK, { task_id: f.child, prompt: 'Postgres', reply_to_question_id: id }),
    );
    expect(late.message).toMatch(/superseded \(operator_prompt\)/);
    expect(await sideEffects(h)).toEqual(before);
  });
});
