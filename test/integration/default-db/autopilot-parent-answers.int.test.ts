// Asking and answering a parent question over real MCP, black box: the child runs the scripted test
// agent (or serves MCP only, so the test asks itself); the parent's session serves MCP only (no agent),
// so the test answers as the parent with a real MCP client on the parent session's endpoint. Covers the
// ask call's result, one accepted answer => exactly one child turn (also under 20 concurrent
// identical replies), the rejections (unknown question, wrong child, not the current parent after a
// reparent), an uncorrelated parent message superseding the question, and a parent whose session starts
// after the question was asked (played by the test agent's README example).
import { join } from 'node:path';
import { TEST_AGENT_MAIN } from '../../helpers/agent-runtime';
import {
  answerOverMcp,
  ASK_PARENT,
  ASK_USER,
  AutopilotWorld,
  type ParentQuestionView,
  resultText,
  type TaskSession,
  type ToolResult,
} from '../../helpers/autopilot';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';
import type { McpConnection } from '../../helpers/mcp';
import { REPO_ROOT } from '../../helpers/processes';

const ANSWER = 'PARENT-ANSWER: use Postgres.';

interface Setup {
  world: AutopilotWorld;
  parentId: string;
  childId: string;
  parent: TaskSession;
  child: TaskSession;
  /** An MCP client on the parent session's endpoint: the test answers as the parent. */
  parentMcp: McpConnection;
}

/** A normal parent task with an MCP-only session, and its autopilot child with the test agent. */
async function setup(cleanup: Cleanup): Promise<Setup> {
  const world = await AutopilotWorld.start(cleanup);
  const parentTask = await world.task({ title: 'Importer epic' });
  const childTask = await world.task({
    title: 'Importer storage',
    parent_id: parentTask.id,
    autopilot: true,
    script: 'autopilot-child',
  });
  const parent = await world.launch(parentTask.id, { agent: false });
  const child = await world.launch(childTask.id, { agent: true });
  const parentMcp = await world.mcp(parent);
  return { world, parentId: parentTask.id, childId: childTask.id, parent, child, parentMcp };
}

/** The child asks; its turn ends; returns the pending question. */
async function childAsks(s: Setup): Promise<ParentQuestionView> {
  await s.world.runtime.postPrompt(s.child.sessionId, 'ASK-PARENT: decide the storage engine');
  await s.world.runtime.waitForDrained(s.child.sessionId, 1);
  return s.world.waitForQuestion(s.childId, 'pending');
}

const statusOf = (result: ToolResult): unknown => result.structuredContent?.status;

async function answerPrompts(s: Setup) {
  return (await s.world.prompts(s.child.sessionId)).filter((p) => p.prompt.includes(ANSWER));
}

describe('autopilot: answering a parent question', () => {
  const cleanup = useCleanup();

  test('the ask call returns at once with the question id; asking again in the same turn asks nothing new', async () => {
    const world = await AutopilotWorld.start(cleanup);
    const parentTask = await world.task({ title: 'Importer epic' });
    const childTask = await world.task({ title: 'Importer storage', parent_id: parentTask.id, autopilot: true });
    const parent = await world.launch(parentTask.id, { agent: false });
    const childMcp = await world.mcp(await world.launch(childTask.id, { agent: false }));
    expect(await childMcp.toolNames()).toEqual(expect.arrayContaining([ASK_PARENT]));
    expect(await childMcp.toolNames()).not.toEqual(expect.arrayContaining([ASK_USER]));

    const args = {
      questions: [{ prompt: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] }],
      context: 'The importer needs a store.',
      blocked_reason: 'I cannot pick the storage engine.',
    };
    const asked = (await childMcp.client.callTool({ name: ASK_PARENT, arguments: args })) as ToolResult;
    expect(asked.isError).toBeFalsy();
    expect(asked.structuredContent).toMatchObject({ parent_task_id: parentTask.id, status: 'waiting_for_parent' });
    const questionId = String(asked.structuredContent?.question_id);
    expect(resultText(asked)).toMatch(/end your turn/i);
    expect(await world.parentQuestions(childTask.id)).toEqual([
      expect.objectContaining({ id: questionId, parent_task_id: parentTask.id, status: 'pending' }),
    ]);
    expect(await world.getTask(childTask.id)).toMatchObject({ autopilot: true, pending_action: 'clarification' });

    // The same call again, and another question while one is pending: the same question, nothing new.
    const again = (await childMcp.client.callTool({ name: ASK_PARENT, arguments: args })) as ToolResult;
    expect(again.structuredContent).toMatchObject({ question_id: questionId, status: 'waiting_for_parent' });
    const other = (await childMcp.client.callTool({
      name: ASK_PARENT,
      arguments: { questions: [{ prompt: 'And the cache?' }], blocked_reason: 'Also blocked on caching.' },
    })) as ToolResult;
    expect(other.structuredContent).toMatchObject({ question_id: questionId, status: 'waiting_for_parent' });
    expect(await world.parentQuestions(childTask.id)).toHaveLength(1);
    const toParent = await world.prompts(parent.sessionId);
    expect(toParent).toHaveLength(1);
    expect(toParent[0]!.prompt).toContain(questionId);
    // Not an operator question.
    const listed = await world.api.request<{ questions: unknown[] }>('GET', `/api/questions?task_id=${childTask.id}`);
    expect(listed.body.questions).toEqual([]);
  });

  test('a parent with no live session gets the question in its next session; the example parent agent answers it', async () => {
    const world = await AutopilotWorld.start(cleanup);
    // The test agent's README example: it reads both ids out of the question prompt and answers.
    const example = await world.api.create<{ id: string }>('/api/agent-profiles', {
      name: 'example autopilot parent',
      command: process.execPath,
      args: [TEST_AGENT_MAIN, '--script', join(REPO_ROOT, 'packages/test-agent/examples/autopilot-parent.json')],
      supports_mcp: true,
    });
    const parentTask = await world.task({ title: 'Importer epic', agent_profile_id: example.id });
    const childTask = await world.task({
      title: 'Importer storage',
      parent_id: parentTask.id,
      autopilot: true,
      script: 'autopilot-child',
    });
    const child = await world.launch(childTask.id, { agent: true });
    await world.runtime.postPrompt(child.sessionId, 'ASK-PARENT: decide the storage engine');
    const question = await world.waitForQuestion(childTask.id, 'pending');

    const parent = await world.launch(parentTask.id, { agent: true });
    const [toParent] = await world.runtime.waitForDrained(parent.sessionId, 1);
    expect(toParent!.prompt).toContain(question.id);
    expect(await world.runtime.agentReplies(parentTask.id)).toEqual([
      `Question ${question.id} from my subtask ${childTask.id}: I pick the first option.`,
      `Answered question ${question.id}.`,
    ]);
    await world.runtime.waitForDrained(child.sessionId, 2);
    expect(await world.runtime.agentReplies(childTask.id)).toEqual([
      '#0 asked my parent; ending my turn.',
      expect.stringContaining('Go with the first option you offered.'),
    ]);
    expect((await world.parentQuestions(childTask.id))[0]).toMatchObject({ status: 'answered' });
  });

  test('20 concurrent identical replies: one answered, 19 already_answered, exactly one child turn', async () => {
    const s = await setup(cleanup);
    const question = await childAsks(s);
    // The question prompt is queued for the parent's session; without an agent it stays queued.
    const parentPrompts = await s.world.prompts(s.parent.sessionId);
    expect(parentPrompts).toHaveLength(1);
    expect(parentPrompts[0]).toMatchObject({ status: 'queued' });
    expect(parentPrompts[0]!.prompt).toContain(question.id);

    // Four connections (as several agents of one session could hold), five calls on each, all at once.
    const connections = [s.parentMcp, ...(await Promise.all([1, 2, 3].map(() => s.world.mcp(s.parent))))];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => answerOverMcp(connections[i % 4]!, s.childId, question.id, ANSWER)),
    );
    expect(results.filter((r) => r.isError === true).map(resultText)).toEqual([]);
    const statuses = results.map(statusOf);
    expect(statuses.filter((st) => st === 'answered')).toHaveLength(1);
    expect(statuses.filter((st) => st === 'already_answered')).toHaveLength(19);

    const drained = await s.world.runtime.waitForDrained(s.child.sessionId, 2);
    expect(drained.map((p) => p.status)).toEqual(['completed', 'completed']);
    const answers = await answerPrompts(s);
    expect(answers).toHaveLength(1);
    expect(await s.world.runtime.agentReplies(s.childId)).toEqual([
      '#0 asked my parent; ending my turn.',
      `#1 got: ${answers[0]!.prompt}`,
    ]);
    expect(await s.world.waitForPendingAction(s.childId, null)).toMatchObject({ pending_action: null });
    expect(await s.world.parentQuestions(s.childId)).toEqual([
      expect.objectContaining({ id: question.id, status: 'answered' }),
    ]);

    // A retry after the fact: the same outcome, still no second delivery.
    const late = await answerOverMcp(s.parentMcp, s.childId, question.id, ANSWER);
    expect(statusOf(late)).toBe('already_answered');
    expect(await answerPrompts(s)).toHaveLength(1);
  });

  test('rejected with no side effect: an unknown question id, and the right id for the wrong child', async () => {
    const s = await setup(cleanup);
    const sibling = await s.world.task({ title: 'Sibling', parent_id: s.parentId, autopilot: true });
    const question = await childAsks(s);
    const before = await s.world.prompts(s.child.sessionId);

    const unknown = await answerOverMcp(s.parentMcp, s.childId, 'no-such-question', ANSWER);
    expect(unknown.isError).toBe(true);
    expect(resultText(unknown)).toContain('no-such-question');
    const wrongChild = await answerOverMcp(s.parentMcp, sibling.id, question.id, ANSWER);
    expect(wrongChild.isError).toBe(true);
    expect(resultText(wrongChild)).toContain(question.id);

    expect(await s.world.parentQuestions(s.childId)).toEqual([
      expect.objectContaining({ id: question.id, status: 'pending' }),
    ]);
    expect(await s.world.parentQuestions(sibling.id)).toEqual([]);
    expect(await s.world.prompts(s.child.sessionId)).toEqual(before);
    expect((await s.world.getTask(s.childId)).pending_action).toBe('clarification');

    // The real answer still works afterwards.
    expect(statusOf(await answerOverMcp(s.parentMcp, s.childId, question.id, ANSWER))).toBe('answered');
    await s.world.runtime.waitForDrained(s.child.sessionId, 2);
    expect(await answerPrompts(s)).toHaveLength(1);
  });

  test('an uncorrelated message from the parent supersedes the question; a late correlated answer is rejected', async () => {
    const s = await setup(cleanup);
    const question = await childAsks(s);

    const plain = (await s.parentMcp.client.callTool({
      name: 'message_task_kandev',
      arguments: { task_id: s.childId, prompt: 'New plan: skip storage for now.' },
    })) as ToolResult;
    expect(plain.isError).toBeFalsy();
    expect(plain.structuredContent).toMatchObject({ superseded_question_ids: [question.id] });
    expect(await s.world.waitForQuestion(s.childId, 'superseded')).toMatchObject({ id: question.id });
    await s.world.runtime.waitForDrained(s.child.sessionId, 2);
    expect(await s.world.runtime.agentReplies(s.childId)).toEqual([
      '#0 asked my parent; ending my turn.',
      expect.stringContaining('New plan: skip storage for now.'),
    ]);
    expect((await s.world.getTask(s.childId)).pending_action).toBeNull();

    const late = await answerOverMcp(s.parentMcp, s.childId, question.id, ANSWER);
    expect(late.isError).toBe(true);
    expect(resultText(late)).toMatch(/superseded/);
    expect(await answerPrompts(s)).toEqual([]);
  });

  test('an operator prompt racing the parent answer: exactly one of them wins, every time', async () => {
    const world = await AutopilotWorld.start(cleanup);
    const parentTask = await world.task({ title: 'Importer epic' });
    const childTask = await world.task({ title: 'Importer storage', parent_id: parentTask.id, autopilot: true });
    const parentMcp = await world.mcp(await world.launch(parentTask.id, { agent: false }));
    // MCP-only: the test asks as the child, and whatever is queued for it stays queued to be counted.
    const child = await world.launch(childTask.id, { agent: false });
    const childMcp = await world.mcp(child);
    for (let round = 0; round < 10; round += 1) {
      const asked = (await childMcp.client.callTool({
        name: ASK_PARENT,
        arguments: { questions: [{ prompt: `Question ${round}?` }], blocked_reason: 'Blocked.' },
      })) as ToolResult;
      const questionId = String(asked.structuredContent?.question_id);
      const [operator, answer] = await Promise.all([
        world.runtime.postPrompt(child.sessionId, `operator ${round}`),
        answerOverMcp(parentMcp, childTask.id, questionId, `answer ${round}`),
      ]);
      const status = (await world.parentQuestions(childTask.id)).find((q) => q.id === questionId)?.status;
      const answerPrompts = (await world.prompts(child.sessionId)).filter((p) => p.prompt.includes(`answer ${round}`));
      // Whichever committed first decides; the other sees a settled question.
      if (status === 'answered') {
        expect([answer.isError === true, statusOf(answer)]).toEqual([false, 'answered']);
        expect(operator.superseded_question_ids).toEqual([]);
        expect(answerPrompts).toHaveLength(1);
      } else {
        expect(status).toBe('superseded');
        expect([answer.isError === true, resultText(answer)]).toEqual([true, expect.stringMatching(/superseded/)]);
        expect(operator.superseded_question_ids).toEqual([questionId]);
        expect(answerPrompts).toEqual([]);
      }
    }
  });

  test('stale: a child session resumed since it asked (a fresh MCP token) leaves the question unanswerable', async () => {
    const s = await setup(cleanup);
    const question = await childAsks(s);
    await s.world.runtime.resume(s.child.sessionId);
    expect(await s.world.waitForQuestion(s.childId, 'stale')).toMatchObject({
      id: question.id,
      closed_reason: 'session_resumed',
    });
    expect((await s.world.getTask(s.childId)).pending_action).toBeNull();
    const late = await answerOverMcp(s.parentMcp, s.childId, question.id, ANSWER);
    expect(late.isError).toBe(true);
    expect(resultText(late)).toMatch(/stale/);
    expect(await answerPrompts(s)).toEqual([]);
  });

  test('reparented while waiting: the old parent can no longer answer; the new parent can', async () => {
    const s = await setup(cleanup);
    const newParentTask = await s.world.task({ title: 'New epic' });
    const newParent = await s.world.launch(newParentTask.id, { agent: false });
    const newParentMcp = await s.world.mcp(newParent);
    const question = await childAsks(s);

    expect(await s.world.reparent(s.childId, newParentTask.id)).toMatchObject({ parent_id: newParentTask.id });
    expect((await s.world.getTask(s.childId)).pending_action).toBe('clarification');

    const fromOld = await answerOverMcp(s.parentMcp, s.childId, question.id, ANSWER);
    expect(fromOld.isError).toBe(true);
    expect(await answerPrompts(s)).toEqual([]);
    expect((await s.world.parentQuestions(s.childId))[0]).toMatchObject({ status: 'pending' });

    const fromNew = await answerOverMcp(newParentMcp, s.childId, question.id, ANSWER);
    expect(fromNew.isError).toBeFalsy();
    expect(statusOf(fromNew)).toBe('answered');
    await s.world.runtime.waitForDrained(s.child.sessionId, 2);
    const answers = await answerPrompts(s);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.prompt).toContain(newParentTask.id);
    expect(await s.world.waitForPendingAction(s.childId, null)).toMatchObject({ pending_action: null });
  });
});
