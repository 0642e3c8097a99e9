// Parent questions across failures, at service level: a backend restart while the child waits, the
// parent's Prompt failing ambiguously, and questions going stale when the asking session ends (stop,
// agent crash), is resumed, or its task is archived. A late answer to a stale question is rejected.
import { AppError } from '@kandev/protocol';
import { useCleanup } from '../../helpers/cleanup';
import {
  ASK_PARENT,
  createParentQuestionHarness,
  MESSAGE_TASK,
  type ParentQuestionHarness,
  question,
} from '../../helpers/parent-question-harness';
import { tempDir } from '../../helpers/processes';
import { jsonColumn, refusal } from '@kandev/backend/testing';
import { FakeAgentctl } from '../../helpers/turn-harness';
import { waitUntil } from '../../helpers/wait';

async function childAsks(h: ParentQuestionHarness, childSession: string): Promise<string> {
  return (await childAsksWithHeld(h, childSession)).id;
}

/** The child asks in a turn while an operator prompt waits behind that turn (queued before the question). */
async function childAsksWithHeld(h: ParentQuestionHarness, childSession: string) {
  await h.turn(childSession, 'work on storage');
  const held = await h.prompt(childSession, 'queued before the question');
  const asked = await h.call(childSession, ASK_PARENT, question());
  h.agentctl.finishTurn(childSession);
  await h.untilState(childSession, 'waiting_for_input');
  return { id: h.structured(asked).question_id as string, held };
}

async function answer(h: ParentQuestionHarness, f: { rootSession?: string; child: string }, id: string) {
  return h.call(f.rootSession ?? '', MESSAGE_TASK, {
    task_id: f.child,
    prompt: 'Use Postgres.',
    reply_to_question_id: id,
  });
}

describe('parent questions: restart and delivery failures', () => {
  const cleanup = useCleanup();

  test('a backend restart while the child waits: still waiting, indicator restored, no second parent prompt', async () => {
    const agentctl = new FakeAgentctl();
    const dataDir = tempDir(cleanup);
    const a = await createParentQuestionHarness(cleanup, { dataDir, agentctl });
    const f = await a.family();
    const { id, held } = await childAsksWithHeld(a, f.childSession);
    const parentPrompt = await a.untilPromptRuns(f.rootSession!, new RegExp(`question_id: ${id}`));
    const queuedBehind = await a.prompt(f.rootSession!, 'parent: unrelated work');

    agentctl.detach();
    await a.turns.stop();
    const b = await createParentQuestionHarness(cleanup, { dataDir, agentctl });
    expect(await b.turns.boot.run()).toMatchObject({ failed: [], redelivered: [] });
    expect((await b.db('parent_questions').where({ id }))[0]).toMatchObject({ status: 'pending' });
    expect((await b.tasks.get(f.child)).pendingAction).toBe('clarification');
    expect(await b.state(f.childSession)).toBe('waiting_for_input');
    expect((await b.uow.read.promptQueue.findById(held))?.status).toBe('queued'); // the boot kick was held
    const toParent = (await b.queue(f.rootSession!)).filter((p) => p.prompt.includes(id));
    expect(toParent.map((p) => p.id)).toEqual([parentPrompt]);
    expect(agentctl.promptCalls.filter((c) => c.promptId === parentPrompt)).toEqual([
      { sessionId: f.rootSession, promptId: parentPrompt, outcome: 'delivered' },
    ]);

    // The answer still lands once, through the restarted backend.
    expect(b.structured(await answer(b, f, id))).toMatchObject({ status: 'answered' });
    agentctl.finishTurn(f.rootSession!);
    const answerTurn = await b.untilPromptRuns(f.childSession, /kandev answer to/);
    agentctl.finishTurn(f.childSession);
    await b.untilRunning(f.childSession, held);
    agentctl.finishTurn(f.childSession);
    await b.untilRunning(f.rootSession!, queuedBehind);
    agentctl.finishTurn(f.rootSession!);
    await b.untilDrained(f.childSession);
    expect(b.deliveredTo(f.childSession).filter((d) => d.promptId === answerTurn)).toHaveLength(1);
    expect(
      b
        .deliveredTo(f.childSession)
        .slice(-2)
        .map((d) => d.promptId),
    ).toEqual([answerTurn, held]);
    expect((await b.tasks.get(f.child)).pendingAction).toBeNull();
  });

  test("the parent's Prompt fails ambiguously: the record stays, the same prompt id is re-sent, delivered once", async () => {
    const h = await createParentQuestionHarness(cleanup, { promptRetry: { baseMs: 1, maxDelayMs: 2, maxAttempts: 5 } });
    const f = await h.family();
    await h.turn(f.childSession, 'work on storage');
    // The next Prompt calls are the parent's: the reply is lost after agentctl took the prompt, then the
    // next try fails before reaching it.
    h.agentctl.failNext('Prompt', new AppError('unavailable', 'connection reset'), { afterApplying: true });
    h.agentctl.failNext('Prompt', new AppError('deadline_exceeded', 'deadline'));
    const id = h.structured(await h.call(f.childSession, ASK_PARENT, question())).question_id as string;
    const parentPrompt = (await h.db('parent_questions'))[0]?.parent_prompt_id as string;
    await h.untilRunning(f.rootSession!, parentPrompt);
    const calls = () => h.agentctl.promptCalls.filter((c) => c.promptId === parentPrompt).map((c) => c.outcome);
    // Re-sent with the same id until agentctl answered: it had it already (a duplicate, not delivered again).
    await waitUntil(() => calls().includes('duplicate'), { timeoutMs: 5_000, what: 'the re-send to be answered' });
    expect(calls()).toEqual(['delivered', 'failed', 'failed', 'duplicate']);
    expect(h.deliveredTo(f.rootSession!).filter((d) => d.promptId === parentPrompt)).toHaveLength(1);
    expect(await h.db('parent_questions')).toMatchObject([{ id, status: 'pending', parent_prompt_id: parentPrompt }]);
    expect((await h.queue(f.rootSession!)).map((p) => p.id)).toEqual([parentPrompt]);
  });

  test('a parent with no live session: the question prompt waits and is the first turn of its next session', async () => {
    const h = await createParentQuestionHarness(cleanup);
    const f = await h.family({ parentSession: false });
    const id = await childAsks(h, f.childSession);
    expect(await h.uow.read.promptQueue.listQueued(f.root)).toMatchObject([{ sessionId: null }]);
    const rootSession = await h.launch(f.root);
    await h.untilPromptRuns(rootSession, new RegExp(`question_id: ${id}`));
    expect(h.structured(await answer(h, { rootSession, child: f.child }, id))).toMatchObject({ status: 'answered' });
  });
});

describe('parent questions: stale', () => {
  const cleanup = useCleanup();

  test('the child session is stopped: stale at once, the late answer rejected, nothing delivered', async () => {
    const h = await createParentQuestionHarness(cleanup);
    const f = await h.family();
    const id = await childAsks(h, f.childSession);
    await h.sessions.stop(f.childSession);
    expect(await h.db('parent_questions')).toMatchObject([{ id, status: 'stale', closed_reason: 'session_ended' }]);
    const entry = (await h.db('messages').where({ task_id: f.child, type: 'parent_question' }))[0];
    expect(jsonColumn(entry.metadata)).toMatchObject({ status: 'stale', closed_reason: 'session_ended' });
    expect((await h.tasks.get(f.child)).pendingAction).toBeNull();
    const queued = await h.db('prompt_queue').select();
    const late = await refusal(answer(h, f, id));
    expect(late).toMatchObject({
      code: 'failed_precondition',
      message: expect.stringMatching(/stale \(session_ended\)/),
    });
    expect(await h.db('prompt_queue').select()).toEqual(queued);
  });

  test('the child agent crashes: stale; after a resume the child is not gated and its queue drains', async () => {
    const h = await createParentQuestionHarness(cleanup);
    const f = await h.family();
    const { id, held } = await childAsksWithHeld(h, f.childSession);
    expect((await h.tasks.get(f.child)).pendingAction).toBe('clarification');
    h.agentctl.crashAgent(f.childSession);
    await h.untilState(f.childSession, 'failed');
    expect(await h.db('parent_questions')).toMatchObject([{ id, status: 'stale', closed_reason: 'session_ended' }]);

    await h.sessions.resume(f.childSession);
    await h.untilRunning(f.childSession, held);
    h.agentctl.finishTurn(f.childSession);
    await h.untilDrained(f.childSession);
    await refusal(answer(h, f, id));
    expect(h.deliveredTo(f.childSession).filter((d) => /kandev answer to/.test(d.text))).toEqual([]);
  });

  test('a live child resumed while waiting: its old question is stale (read lazily), the resumed child is not gated', async () => {
    const h = await createParentQuestionHarness(cleanup);
    const f = await h.family();
    const { id, held } = await childAsksWithHeld(h, f.childSession);
    await h.turns.drainer.kick(f.childSession);
    expect((await h.uow.read.promptQueue.findById(held))?.status).toBe('queued');

    // A resume from waiting_for_input: nothing ended, but the session is a new incarnation.
    await h.sessions.resume(f.childSession);
    await h.untilRunning(f.childSession, held);
    expect(await h.db('parent_questions')).toMatchObject([{ id, status: 'stale', closed_reason: 'session_resumed' }]);
    h.agentctl.finishTurn(f.childSession);
    const late = await refusal(answer(h, f, id));
    expect(late.message).toMatch(/stale \(session_resumed\)/);
  });

  test('the child task is archived: stale when next read; the late answer is rejected', async () => {
    const h = await createParentQuestionHarness(cleanup);
    const f = await h.family();
    const id = await childAsks(h, f.childSession);
    await h.db('tasks').where({ id: f.child }).update({ archived_at: '2026-12-01T11:00:00.000Z' });
    const late = await refusal(answer(h, f, id));
    expect(late.message).toMatch(/stale \(task_archived\)/);
    expect(await h.db('parent_questions')).toMatchObject([{ id, status: 'stale', closed_reason: 'task_archived' }]);
  });

  test('the child task is marked done: stale, the indicator clears, the late answer is rejected', async () => {
    const h = await createParentQuestionHarness(cleanup);
    const f = await h.family();
    const id = await childAsks(h, f.childSession);
    await h.db('tasks').where({ id: f.child }).update({ state: 'done' });
    const late = await refusal(answer(h, f, id));
    expect(late.message).toMatch(/stale \(task_done\)/);
    expect(await h.db('parent_questions')).toMatchObject([{ id, status: 'stale', closed_reason: 'task_done' }]);
  });
});
