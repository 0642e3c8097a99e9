// ask_parent_question_kandev at service level (tool handlers over real SQLite, fake agentctl, the
// drainer replaced by a recorder of kicks): what one call records in one transaction, the tool-call
// identity (a retry is the same question), one pending question per session, and the callers that have
// nobody to ask (refused, nothing written).
import { useCleanup } from '../../helpers/cleanup';
import {
  createToolHarness,
  expectRefusedUnchanged,
  jsonColumn,
  refusal,
  type ToolHarness,
} from '@kandev/backend/testing';
import { ASK_PARENT, question } from '../../helpers/parent-question-harness';

/** boss (normal) ── kid (autopilot, s-kid) ── grandkid (autopilot);  root (autopilot, no parent);  plain (normal child). */
async function family(h: ToolHarness): Promise<void> {
  await h.workspace('w');
  await h.task('boss');
  await h.task('kid', { parentId: 'boss', autopilot: true });
  await h.task('grandkid', { parentId: 'kid', autopilot: true });
  await h.task('root', { autopilot: true });
  await h.task('plain', { parentId: 'boss' });
  await h.session('s-boss', 'boss');
  await h.session('s-kid', 'kid', { questionCapability: 'parent' });
  await h.session('s-root', 'root', { questionCapability: 'none' });
  await h.session('s-plain', 'plain', { questionCapability: 'user' });
}

/** The child's turn in flight (the drainer would have claimed it): the identity's turn component. */
async function turnInFlight(h: ToolHarness, sessionId: string, taskId: string, promptId: string): Promise<void> {
  await h.db('prompt_queue').where({ session_id: sessionId, status: 'dispatched' }).update({ status: 'completed' });
  await h.db('prompt_queue').insert({
    id: promptId,
    task_id: taskId,
    session_id: sessionId,
    prompt: 'work',
    source: 'operator',
    status: 'dispatched',
    created_at: '2026-11-30T10:00:00.000Z',
  });
}

describe('ask_parent_question_kandev: the record', () => {
  const cleanup = useCleanup();

  test('one call: the question, its entry on the child and one attributed prompt for the parent, committed together', async () => {
    const h = await createToolHarness(cleanup);
    await family(h);
    await turnInFlight(h, 's-kid', 'kid', 'turn-1');
    const args = { ...question(), context: 'We ship on Friday.' };
    const asked = await h.call('s-kid', ASK_PARENT, args);
    const id = asked.structured?.question_id as string;
    expect(asked.structured).toEqual({
      question_id: id,
      parent_task_id: 'boss',
      status: 'waiting_for_parent',
      outcome: 'asked',
    });
    expect(asked.text).toMatch(/End your turn now/);

    const [row] = await h.db('parent_questions');
    expect(row).toMatchObject({
      id,
      child_task_id: 'kid',
      child_session_id: 's-kid',
      parent_task_id: 'boss',
      turn_prompt_id: 'turn-1',
      blocked_reason: 'the schema depends on it',
      context: 'We ship on Friday.',
      status: 'pending',
      closed_reason: null,
    });
    // The child's conversation: a typed entry carrying the whole record.
    const entries = await h.db('messages').where({ task_id: 'kid' });
    expect(entries).toMatchObject([
      { id: row.message_id, type: 'parent_question', author: 'agent', session_id: 's-kid' },
    ]);
    const metadata = jsonColumn(entries[0].metadata) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      question_id: id,
      child_task_id: 'kid',
      child_session_id: 's-kid',
      parent_task_id: 'boss',
      status: 'pending',
      blocked_reason: 'the schema depends on it',
      questions: [{ id: 'db', prompt: 'Which database?' }],
      tool_call: { turn_prompt_id: 'turn-1', call_key: row.call_key },
      created_at: expect.any(String),
    });
    // The parent's queue: one prompt, attributed to the child, for the parent's live session; kicked.
    const toParent = await h.uow.read.promptQueue.listQueued('boss');
    expect(toParent).toMatchObject([
      { id: row.parent_prompt_id, sessionId: 's-boss', source: 'task:kid', priority: 'normal' },
    ]);
    expect(toParent[0]?.prompt).toContain(`question_id: ${id}`);
    expect(await h.db('messages').where({ task_id: 'boss' })).toMatchObject([{ author: 'task:kid', type: 'message' }]);
    expect(h.kicks).toEqual(['s-boss']);
    // Never an operator question.
    expect(await h.db('questions')).toEqual([]);
  });

  test('the same call retried in the same turn is the same question: no second record, no second parent prompt', async () => {
    const h = await createToolHarness(cleanup);
    await family(h);
    await turnInFlight(h, 's-kid', 'kid', 'turn-1');
    const first = await h.call('s-kid', ASK_PARENT, question());
    const before = await h.snapshot();
    // agentctl's call id differs on every forward; the identity does not use it.
    const retried = await h.call('s-kid', ASK_PARENT, question());
    expect(retried.structured).toEqual({ ...first.structured, outcome: 'retried' });
    expect(await h.snapshot()).toEqual(before);
    expect(await h.uow.read.promptQueue.listQueued('boss')).toHaveLength(1);
  });

  test('a second question while one is pending returns the pending one; nothing new is asked', async () => {
    const h = await createToolHarness(cleanup);
    await family(h);
    await turnInFlight(h, 's-kid', 'kid', 'turn-1');
    const first = await h.call('s-kid', ASK_PARENT, question());
    const before = await h.snapshot();
    await turnInFlight(h, 's-kid', 'kid', 'turn-2');
    const afterTurn = await h.snapshot();
    const second = await h.call('s-kid', ASK_PARENT, question('Which cache?', 'caching layer'));
    expect(second.structured).toMatchObject({
      question_id: first.structured?.question_id,
      status: 'waiting_for_parent',
      outcome: 'already_pending',
    });
    expect(second.text).toMatch(/already have a pending question/);
    expect(await h.snapshot()).toEqual(afterTurn);
    expect((await h.snapshot()).parent_questions).toEqual(before.parent_questions);
  });

  test('a parent without a live session: the prompt waits for its next session, nothing is kicked', async () => {
    const h = await createToolHarness(cleanup);
    await family(h);
    await h.db('sessions').where({ id: 's-boss' }).update({ state: 'cancelled' });
    await h.call('s-kid', ASK_PARENT, question());
    expect(await h.uow.read.promptQueue.listQueued('boss')).toMatchObject([{ sessionId: null, source: 'task:kid' }]);
    expect(h.kicks).toEqual([]);
  });
});

describe('ask_parent_question_kandev: nobody to ask', () => {
  const cleanup = useCleanup();

  test('an autopilot root: "no parent to ask", no record, no indicator', async () => {
    const h = await createToolHarness(cleanup);
    await family(h);
    const error = await expectRefusedUnchanged(
      h,
      () => h.call('s-root', ASK_PARENT, question()),
      'failed_precondition',
    );
    expect(error.message).toMatch(/no parent to ask/);
    expect((await h.deps.tasks.get('root')).pendingAction).toBeNull();
  });

  test('a normal task calling it directly (over Attach): "not an autopilot task", whatever its arguments', async () => {
    const h = await createToolHarness(cleanup);
    await family(h);
    for (const args of [question(), {}, { questions: [] }]) {
      const error = await expectRefusedUnchanged(h, () => h.call('s-plain', ASK_PARENT, args), 'failed_precondition');
      expect(error.message).toMatch(/not an autopilot task/);
    }
    expect((await h.deps.tasks.get('plain')).pendingAction).toBeNull();
  });

  test('a child whose session was launched as a root (capability none) is refused until a resume', async () => {
    const h = await createToolHarness(cleanup);
    await family(h);
    await h.session('s-kid-old', 'kid', { questionCapability: 'none' });
    const error = await expectRefusedUnchanged(
      h,
      () => h.call('s-kid-old', ASK_PARENT, question()),
      'permission_denied',
    );
    expect(error.message).toMatch(/not served to this session/);
  });

  test('a child reparented to the top level is an autopilot root now: refused', async () => {
    const h = await createToolHarness(cleanup);
    await family(h);
    await h.deps.tasks.update('kid', { parent_id: null });
    const error = await refusal(h.call('s-kid', ASK_PARENT, question()));
    expect(error).toMatchObject({ code: 'failed_precondition', message: expect.stringMatching(/no parent to ask/) });
    expect(await h.db('parent_questions')).toEqual([]);
  });

  test('invalid arguments from a child: invalid_argument, nothing written', async () => {
    const h = await createToolHarness(cleanup);
    await family(h);
    for (const args of [
      { questions: [{ prompt: 'x' }] },
      { questions: [{ prompt: 'x' }], blocked_reason: '' },
      { questions: [{ prompt: 'x' }], blocked_reason: 'b', task_id: 'boss' },
    ]) {
      await expectRefusedUnchanged(h, () => h.call('s-kid', ASK_PARENT, args), 'invalid_argument');
    }
  });
});
