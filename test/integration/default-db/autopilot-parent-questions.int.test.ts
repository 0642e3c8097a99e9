// The parent-question lifecycle end to end, black box: a real backend (with its own agentctl) runs the
// scripted test agent as a normal parent task and as its autopilot child. The child asks with
// ask_parent_question_kandev; the parent's agent finds the question id in the prompt the backend queued
// for it (capture steps) and answers with message_task_kandev once the test releases it (wait_for_file),
// so every state in between can be observed. REST, real MCP and files in the agents' work dirs only.
import type { ConversationEntry } from '../../helpers/agent-runtime';
import {
  ASK_PARENT,
  AutopilotWorld,
  MESSAGE_TASK,
  type ParentQuestionView,
  type TaskSession,
  toolCallOutputText,
  releaseInWorkDir,
} from '../../helpers/autopilot';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';

const QUESTION = 'LEAF-Q Which database should the importer use?';
const ANSWER = 'PARENT-ANSWER: use Postgres.';

interface Family {
  world: AutopilotWorld;
  parentId: string;
  childId: string;
  parent: TaskSession;
  child: TaskSession;
  /** The parent's agent answers question `id` once this file exists in its work dir. */
  releaseParent: (questionId: string) => void;
  /** The child's agent asks in its turn `ordinal` (a HOLD-THEN-ASK prompt) once this is called. */
  releaseChildAsk: (ordinal: number) => void;
}

/** A normal parent task and its autopilot child, each with a live session running the test agent. */
async function family(cleanup: Cleanup): Promise<Family> {
  const w = await AutopilotWorld.start(cleanup);
  // Each agent works in its task workspace; the test releases its wait_for_file steps there.
  const parentTask = await w.task({ title: 'Importer epic', script: 'autopilot-parent' });
  const childTask = await w.task({
    title: 'Importer storage',
    parent_id: parentTask.id,
    autopilot: true,
    script: 'autopilot-child',
  });
  const parent = await w.launch(parentTask.id, { agent: true });
  const child = await w.launch(childTask.id, { agent: true });
  expect(child.session.launch_config.question_capability).toBe('parent');
  return {
    world: w,
    parentId: parentTask.id,
    childId: childTask.id,
    parent,
    child,
    releaseParent: (questionId) => releaseInWorkDir(parent, `answer-${questionId}`),
    releaseChildAsk: (ordinal) => releaseInWorkDir(child, `ask-${ordinal}`),
  };
}

/** The child asks (its prompt turn ends at once) and the question is pending; returns it. */
async function childAsks(f: Family): Promise<ParentQuestionView> {
  const asked = await f.world.runtime.postPrompt(f.child.sessionId, 'ASK-PARENT: decide the storage engine');
  await f.world.runtime.waitForPrompts(
    f.child.sessionId,
    (prompts) => prompts.find((p) => p.id === asked.queued_prompt_id)?.status === 'completed',
    'the asking turn ended',
  );
  return f.world.waitForQuestion(f.childId, 'pending');
}

/**
 * The parent's agent got exactly one prompt, the question's, and its turn is running: it holds its
 * answer until released (agentctl reports the turn's text when the turn ends, so the replies that show
 * what the agent read from the prompt are checked afterwards, with parentAnswered).
 */
async function parentHolding(f: Family, question: ParentQuestionView): Promise<void> {
  const [prompt] = await f.world.runtime.waitForPrompts(
    f.parent.sessionId,
    (prompts) => prompts.length === 1 && prompts[0]!.status === 'dispatched',
    'the question prompt reached the parent',
  );
  expect(prompt!.prompt).toContain(question.id);
  await f.world.runtime.waitForTurn(f.parent.sessionId, prompt!.id);
}

/** The parent's turn ended; from the question prompt alone its agent had read both ids. */
async function parentAnswered(f: Family, question: ParentQuestionView): Promise<void> {
  await f.world.runtime.waitForDrained(f.parent.sessionId, 1);
  expect(await f.world.runtime.agentReplies(f.parentId)).toEqual([
    `#0 question ${question.id} from task ${f.childId}`,
    `#0 answered ${question.id}`,
  ]);
}

/** The answer prompts the child has been given (at most one may ever exist). */
async function answerPrompts(f: Family) {
  return (await f.world.prompts(f.child.sessionId)).filter((p) => p.prompt.includes(ANSWER));
}

/** What the parent's two message_task_kandev calls (answer, then the same again) returned. */
async function parentAnswerCalls(f: Family): Promise<ConversationEntry[]> {
  return f.world.waitForToolCalls(f.parentId, MESSAGE_TASK, 2);
}

describe('autopilot: the parent-question lifecycle', () => {
  const cleanup = useCleanup();

  test('ask returns at once and gates the child; one prompt reaches the parent; its answer starts exactly one child turn; a retry is already_answered', async () => {
    const f = await family(cleanup);
    const { world } = f;

    // The child's turn holds until released; a prompt posted meanwhile is queued BEFORE the question.
    const hold = await world.runtime.postPrompt(f.child.sessionId, 'HOLD-THEN-ASK: decide the storage engine');
    await world.runtime.waitForTurn(f.child.sessionId, hold.queued_prompt_id);
    const followUp = await world.runtime.postPrompt(f.child.sessionId, 'ordinary follow-up');
    f.releaseChildAsk(0);

    // The call returned at once: the asking turn ended while the parent has not answered.
    const question = await world.waitForQuestion(f.childId, 'pending');
    await world.runtime.waitForPrompts(
      f.child.sessionId,
      (prompts) => prompts.find((p) => p.id === hold.queued_prompt_id)?.status === 'completed',
      'the asking turn ended',
    );
    expect(question).toMatchObject({
      child_task_id: f.childId,
      parent_task_id: f.parentId,
      status: 'pending',
      questions: [{ prompt: QUESTION, options: [{ label: 'SQLite' }, { label: 'Postgres' }] }],
    });
    const [askCall] = await world.waitForToolCalls(f.childId, ASK_PARENT, 1);
    expect(askCall!.metadata.status).toBe('completed');
    expect(toolCallOutputText(askCall!)).toContain('waiting_for_parent');
    expect(toolCallOutputText(askCall!)).toContain(question.id);

    // Gated: waiting for input, the indicator is on, and the follow-up queued before it does not drain.
    const gated = await world.waitForPendingAction(f.childId, 'clarification');
    expect(gated).toMatchObject({ autopilot: true, pending_action: 'clarification' });
    await world.runtime.waitForState(f.child.sessionId, 'waiting_for_input');
    await parentHolding(f, question);
    expect((await world.prompts(f.child.sessionId)).find((p) => p.id === followUp.queued_prompt_id)?.status).toBe(
      'queued',
    );

    // Exactly one structured prompt reached the parent: who asks, the exact question and options, the
    // question id and the reply shape.
    const [toParent] = await world.prompts(f.parent.sessionId);
    expect(toParent!.prompt).toContain(f.childId);
    expect(toParent!.prompt).toContain(QUESTION);
    expect(toParent!.prompt).toContain('SQLite');
    expect(toParent!.prompt).toContain('Postgres');
    expect(toParent!.prompt).toContain(question.id);
    expect(toParent!.prompt).toContain('reply_to_question_id');
    expect(toParent!.prompt).toContain(MESSAGE_TASK);
    // In the parent's conversation too: one entry, attributed to the child task (the parent agent's own
    // reply naming the question streams in beside it).
    const inParent = (await world.runtime.messages(f.parentId)).filter(
      (m) => m.content.includes(question.id) && m.author !== 'agent',
    );
    expect(inParent.map((m) => [m.type, m.author])).toEqual([['message', `task:${f.childId}`]]);
    // The child's conversation records its question.
    const inChild = (await world.runtime.messages(f.childId)).filter((m) => m.type === 'parent_question');
    expect(inChild).toHaveLength(1);
    expect(inChild[0]!.content).toContain(question.id);
    // Parent questions are not operator questions.
    const operatorQuestions = await world.api.request<{ questions: { id: string }[] }>('GET', '/api/questions');
    expect(operatorQuestions.body.questions.map((q) => q.id)).not.toContain(question.id);

    // The parent answers, then sends the very same answer again.
    f.releaseParent(question.id);
    const [answered, retried] = await parentAnswerCalls(f);
    await parentAnswered(f, question);
    expect(answered!.metadata.status).toBe('completed');
    // The conversation keeps the text the agent saw (the structured status is checked over MCP elsewhere).
    expect(toolCallOutputText(answered!)).toContain(`Answer to question ${question.id} accepted`);
    expect(retried!.metadata.status).toBe('completed');
    expect(toolCallOutputText(retried!)).toContain(`Question ${question.id} was already answered`);

    // Exactly one child turn with the attributed answer, first; then the follow-up drains.
    const drained = await world.runtime.waitForDrained(f.child.sessionId, 3);
    expect(drained.map((p) => p.status)).toEqual(['completed', 'completed', 'completed']);
    const answers = await answerPrompts(f);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.prompt).toContain(question.id);
    expect(answers[0]!.prompt).toContain(f.parentId);
    const replies = await world.runtime.agentReplies(f.childId);
    expect(replies).toEqual([
      '#0 asked my parent; ending my turn.',
      `#1 got: ${answers[0]!.prompt}`,
      '#2 got: ordinary follow-up',
    ]);
    expect(await world.waitForPendingAction(f.childId, null)).toMatchObject({ pending_action: null });
    expect(await world.parentQuestions(f.childId)).toEqual([
      expect.objectContaining({
        id: question.id,
        status: 'answered',
        answer: expect.objectContaining({ text: ANSWER, by_task_id: f.parentId }),
      }),
    ]);
  });

  test('a backend SIGKILLed while the child waits: still waiting, indicator restored, no second parent prompt; the answer still lands once', async () => {
    const f = await family(cleanup);
    const question = await childAsks(f);
    await parentHolding(f, question);
    await f.world.waitForPendingAction(f.childId, 'clarification');

    const world = await f.world.restart();
    const after: Family = { ...f, world };
    expect(await world.waitForQuestion(f.childId, 'pending')).toMatchObject({ id: question.id });
    expect((await world.getTask(f.childId)).pending_action).toBe('clarification');
    expect((await world.runtime.session(f.child.sessionId)).state).toBe('waiting_for_input');
    const parentPrompts = await world.prompts(f.parent.sessionId);
    expect(parentPrompts).toHaveLength(1);
    expect(parentPrompts[0]!.prompt).toContain(question.id);

    f.releaseParent(question.id);
    const [answered, retried] = await parentAnswerCalls(after);
    await parentAnswered(after, question);
    expect(toolCallOutputText(answered!)).toContain(`Answer to question ${question.id} accepted`);
    expect(toolCallOutputText(retried!)).toContain(`Question ${question.id} was already answered`);
    await world.runtime.waitForDrained(f.child.sessionId, 2);
    expect(await answerPrompts(after)).toHaveLength(1);
    expect(await world.waitForPendingAction(f.childId, null)).toMatchObject({ pending_action: null });
    expect((await world.parentQuestions(f.childId))[0]).toMatchObject({ status: 'answered' });
    // Still one question prompt on the parent.
    expect((await world.prompts(f.parent.sessionId)).filter((p) => p.prompt.includes(question.id))).toHaveLength(1);
  });

  test('superseded: an operator prompt to the waiting child ends the question; the late answer is rejected and starts nothing', async () => {
    const f = await family(cleanup);
    const { world } = f;
    const question = await childAsks(f);
    await parentHolding(f, question);

    const override = await world.runtime.postPrompt(f.child.sessionId, 'operator: use SQLite and carry on');
    expect(override.superseded_question_ids).toEqual([question.id]);
    await world.runtime.waitForDrained(f.child.sessionId, 2);
    expect((await world.prompts(f.child.sessionId)).map((p) => p.id)).toContain(override.queued_prompt_id);
    expect(await world.waitForQuestion(f.childId, 'superseded')).toMatchObject({ id: question.id });
    expect((await world.getTask(f.childId)).pending_action).toBeNull();

    f.releaseParent(question.id);
    const calls = await parentAnswerCalls(f);
    await parentAnswered(f, question);
    for (const call of calls) {
      expect(call.metadata.status).toBe('failed');
      expect(toolCallOutputText(call)).toMatch(/superseded/);
    }
    expect(await answerPrompts(f)).toEqual([]);
    expect(await world.runtime.agentReplies(f.childId)).toEqual([
      '#0 asked my parent; ending my turn.',
      '#1 got: operator: use SQLite and carry on',
    ]);
    expect((await world.parentQuestions(f.childId))[0]).toMatchObject({ status: 'superseded' });
  });

  test('stale: the child session stopped while waiting; the late answer is rejected and starts nothing', async () => {
    const f = await family(cleanup);
    const { world } = f;
    const question = await childAsks(f);
    await parentHolding(f, question);

    await world.runtime.stop(f.child.sessionId);
    expect(await world.waitForQuestion(f.childId, 'stale')).toMatchObject({ id: question.id });
    expect((await world.getTask(f.childId)).pending_action).toBeNull();

    f.releaseParent(question.id);
    const calls = await parentAnswerCalls(f);
    await parentAnswered(f, question);
    for (const call of calls) {
      expect(call.metadata.status).toBe('failed');
      expect(toolCallOutputText(call)).toMatch(/stale/);
    }
    expect(await answerPrompts(f)).toEqual([]);
    const messages = await world.runtime.messages(f.childId);
    expect(messages.filter((m) => m.content.includes(ANSWER))).toEqual([]);
  });
});
