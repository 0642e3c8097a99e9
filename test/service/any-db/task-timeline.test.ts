// A task's timeline (GET /api/tasks/:id/timeline) in process (real database, fake agentctl): every
// kind of entry from the rows that hold it (prompts with their delivery and outcome, tool calls with
// arguments, result and duration, questions kept with their answers, session states, tool-list
// revisions), each attributed to its session and dated; pages that neither repeat nor skip; refusals.
import { MIGRATION_SOURCE, openTestDatabase } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import type { BackendApi } from '../../helpers/backend-api';
import { tempDir } from '../../helpers/processes';
import { createTurnHarness, type TurnHarness } from '../../helpers/turn-harness';

interface Entry {
  id: string;
  kind: string;
  session_id: string | null;
  at: string;
  [field: string]: unknown;
}
interface TimelinePage {
  task_id: string;
  entries: Entry[];
  next_cursor: string | null;
}

const ISO_WITH_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function page(api: BackendApi, taskId: string, query = ''): Promise<TimelinePage> {
  const response = await api.request<TimelinePage>('GET', `/api/tasks/${taskId}/timeline${query}`);
  if (response.status !== 200) throw new Error(`timeline -> ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Every entry, a page of `limit` at a time, following next_cursor to the end. */
async function allPages(api: BackendApi, taskId: string, limit: number): Promise<Entry[]> {
  const entries: Entry[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `?limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const next = await page(api, taskId, query);
    expect(next.entries.length).toBeLessThanOrEqual(limit);
    entries.push(...next.entries);
    cursor = next.next_cursor;
  } while (cursor !== null);
  return entries;
}

/** A question of the session's task, as the question service stores one. */
async function question(h: TurnHarness, sessionId: string, id: string, kind: 'user' | 'permission') {
  const session = await h.uow.read.sessions.findById(sessionId);
  const at = h.clock().toISOString();
  await h.uow.read.questions.insert({
    id,
    taskId: session?.taskId ?? '',
    sessionId,
    callId: `call-${id}`,
    kind,
    questions: [{ id: 'q0', prompt: `${id}?`, options: [{ label: 'Yes' }, { label: 'No' }] }],
    context: null,
    state: 'pending',
    answers: null,
    answeredBy: null,
    closedReason: null,
    answerDelivery: null,
    createdAt: at,
    answeredAt: null,
    expiresAt: '2100-01-01T00:00:00.000Z',
  });
}

/** A session whose turn made a tool call and answered; a question answered, a permission request pending. */
async function busySession(h: TurnHarness) {
  const id = await h.readySession();
  const taskId = (await h.uow.read.sessions.findById(id))?.taskId ?? '';
  const promptId = await h.prompt(id, 'fix the parser');
  await h.untilRunning(id, promptId);
  const call = { kind: 'tool_call' as const, toolCallId: 'tc1', title: 'Run tests', toolKind: 'execute', diffs: [] };
  h.agentctl.output(id, { ...call, status: 'in_progress', inputJson: '{"command":"npm test"}', outputText: '' });
  h.agentctl.output(id, { ...call, status: 'completed', inputJson: '', outputText: 'x'.repeat(600) });
  h.agentctl.output(id, { kind: 'agent_message', segment: 1, text: 'Fixed.' });
  h.agentctl.finishTurn(id);
  await h.untilDrained(id);
  await h.untilState(id, 'waiting_for_input');
  await question(h, id, 'ask1', 'user');
  const answer = [{ question_index: 0, question_id: 'q0', option: 'Yes' }];
  expect(
    await h.uow.read.questions.markAnswered(
      'ask1',
      { answers: answer, by: 'operator', delivery: 'waiting_call' },
      h.clock().toISOString(),
    ),
  ).toBe(true);
  await question(h, id, 'perm1', 'permission');
  // An autopilot-style question to a parent task, answered.
  const parentId = await h.agentTask();
  const asked = h.clock().toISOString();
  await h.uow.read.parentQuestions.insert({
    id: 'pq1',
    childTaskId: taskId,
    childSessionId: id,
    childSessionTokenHash: 'h',
    parentTaskId: parentId,
    callKey: 'key-pq1',
    callId: 'call-pq1',
    turnPromptId: null,
    questions: [{ id: 'q1', prompt: 'Which cache?' }],
    context: null,
    blockedReason: 'the importer needs one',
    status: 'answered',
    closedReason: null,
    messageId: 'm-pq1',
    parentPromptId: 'p-pq1',
    answer: 'Use Redis',
    answeredByTaskId: parentId,
    answeredBySessionId: null,
    answerPromptId: null,
    createdAt: asked,
    answeredAt: h.clock().toISOString(),
    closedAt: null,
  });
  // A revision that drops a tool: its removal is kept.
  await h.uow.transaction(async (stores) => {
    const entries = [{ id, taskId, acknowledged: { revision: 9, providers: [], toolNames: ['only_kandev'] } }];
    const kept = await stores.sessions.keptToolListsOf(entries);
    await stores.sessions.recordAppliedMany(entries, h.clock().toISOString(), kept);
  });
  return { id, taskId, promptId };
}

describe('task timeline (in process)', () => {
  const cleanup = useCleanup();

  test('each kind of entry, attributed to its session, dated, oldest first', async () => {
    const h = await createTurnHarness(cleanup);
    const { id, taskId, promptId } = await busySession(h);
    // Its agentctl is lost: the session fails, with why.
    const lost = await h.uow.transaction((stores) =>
      stores.sessions.advanceCurrent(id, { kind: 'lost' }, h.clock().toISOString(), { lastError: 'agentctl lost' }),
    );
    expect(lost).toBe('failed');
    const api = await h.serve();
    const { task_id, entries, next_cursor } = await page(api, taskId, '?limit=200');
    expect(task_id).toBe(taskId);
    expect(next_cursor).toBeNull();
    for (const entry of entries) {
      expect(entry.session_id).toBe(id);
      expect(entry.at).toMatch(ISO_WITH_DATE);
    }
    expect(entries.map((entry) => entry.at)).toEqual(entries.map((entry) => entry.at).sort());

    const states = entries
      .filter((entry) => entry.kind === 'state_change')
      .map((e) => [e.previous_state, e.state, e.error]);
    expect(states).toEqual(
      expect.arrayContaining([
        ['waiting_for_input', 'running', null],
        ['running', 'waiting_for_input', null],
      ]),
    );
    expect(states.at(-1)).toEqual(['waiting_for_input', 'failed', 'agentctl lost']);

    const prompt = entries.find((entry) => entry.kind === 'prompt');
    expect(prompt).toMatchObject({ prompt_id: promptId, text: 'fix the parser', source: 'operator' });
    expect(prompt).toMatchObject({ status: 'completed', stop_reason: 'end_turn', error: null });
    expect(prompt?.delivered_at).toMatch(ISO_WITH_DATE);
    expect(prompt?.duration_ms).toBe(
      Date.parse(String(prompt?.finished_at)) - Date.parse(String(prompt?.delivered_at)),
    );

    const call = entries.find((entry) => entry.kind === 'tool_call');
    expect(call).toMatchObject({
      tool_call_id: 'tc1',
      prompt_id: promptId,
      title: 'Run tests',
      tool_kind: 'execute',
      status: 'completed',
      input: { command: 'npm test' },
      result_summary: 'x'.repeat(500),
    });
    expect(call?.duration_ms).toBe(Date.parse(String(call?.finished_at)) - Date.parse(call?.at ?? ''));
    expect(call?.duration_ms).toBeGreaterThan(0);

    const questions = entries.filter((entry) => entry.kind === 'question');
    expect(questions.map((q) => [q.question_id, q.question_kind, q.state])).toEqual([
      ['ask1', 'user', 'answered'],
      ['perm1', 'permission', 'pending'],
    ]);
    // Answered, it stays, with what was answered, by whom and when.
    expect(questions[0]).toMatchObject({
      answers: [{ question_index: 0, question_id: 'q0', option: 'Yes' }],
      answered_by: 'operator',
    });
    expect(questions[0]?.answered_at).toMatch(ISO_WITH_DATE);

    const parent = entries.find((entry) => entry.kind === 'parent_question');
    expect(parent).toMatchObject({ question_id: 'pq1', status: 'answered', answer: 'Use Redis' });
    expect(parent?.answered_by_task_id).toEqual(expect.any(String));
    expect(parent?.answered_at).toMatch(ISO_WITH_DATE);

    const revisions = entries.filter((entry) => entry.kind === 'tools_revision');
    expect(revisions.length).toBeGreaterThanOrEqual(2);
    const first = revisions[0];
    expect((first?.added as string[]).length).toBeGreaterThan(0);
    expect(revisions.at(-1)).toMatchObject({ revision: 9, added: ['only_kandev'] });
    expect((revisions.at(-1)?.removed as string[]).sort()).toEqual(
      (first?.added as string[]).filter((name) => name !== 'only_kandev').sort(),
    );
  });

  test('pages of any size neither repeat nor skip an entry, even at equal times', async () => {
    const h = await createTurnHarness(cleanup);
    const { id, taskId } = await busySession(h);
    // Rows of every source at one same time: the order at a tie still pages exactly.
    const at = '2030-01-01T00:00:00.000Z';
    const asked = await h.uow.read.questions.findById('perm1');
    if (asked === undefined) throw new Error('perm1 is gone');
    await h.uow.read.questions.insert({ ...asked, id: 'tie-b', createdAt: at });
    await h.uow.read.questions.insert({ ...asked, id: 'tie-a', createdAt: at });
    await h.db('prompt_queue').insert({
      id: 'tie-p',
      task_id: taskId,
      session_id: id,
      prompt: 'later',
      source: 'operator',
      priority: 0,
      status: 'completed',
      created_at: at,
    });
    const state = (to: string, from: string) => ({
      session_id: id,
      task_id: taskId,
      kind: 'state_change',
      payload: JSON.stringify({ state: to, previous_state: from }),
      created_at: at,
    });
    await h
      .db('session_history')
      .insert([state('running', 'waiting_for_input'), state('waiting_for_input', 'running')]);
    const api = await h.serve();
    const whole = (await page(api, taskId, '?limit=200')).entries;
    expect(new Set(whole.map((entry) => entry.id)).size).toBe(whole.length);
    expect(whole.slice(-5).map((entry) => entry.kind)).toEqual([
      'state_change',
      'state_change',
      'prompt',
      'question',
      'question',
    ]);
    for (const limit of [1, 2, 3, 7]) {
      expect((await allPages(api, taskId, limit)).map((entry) => entry.id)).toEqual(whole.map((entry) => entry.id));
    }
  });

  test('migration 019 keeps the session history the event log still holds; down drops it', async () => {
    const db = await openTestDatabase(tempDir(cleanup), cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    for (let i = 0; i < 17; i += 1) await db.migrate.up({ migrationSource: MIGRATION_SOURCE });
    const event = (type: string, payload: unknown, sessionId: string | null) => ({
      type,
      task_id: 't',
      session_id: sessionId,
      payload: JSON.stringify(payload),
      created_at: '2026-12-01T10:00:00.000Z',
    });
    const state = { state: 'running', previous_state: 'waiting_for_input', executor: 'local' };
    const tools = { revision: 2, providers: [], added: ['a_kandev'], removed: [] };
    await db('events').insert([
      event('session.state_changed', state, 's'),
      event('task.updated', { task: {} }, null),
      event('tools.changed', tools, 's'),
    ]);
    // Exactly migration 019 (later ones are not this test's business).
    const [, applied] = (await db.migrate.up({ migrationSource: MIGRATION_SOURCE })) as [number, string[]];
    expect(applied).toEqual(['20261205-019-session-history']);
    const rows: { kind: string; payload: string; session_id: string }[] = await db('session_history').orderBy('id');
    expect(rows.map((row) => [row.session_id, row.kind, JSON.parse(row.payload) as unknown])).toEqual([
      ['s', 'state_change', state],
      ['s', 'tools_revision', tools],
    ]);
    await db.migrate.down({ migrationSource: MIGRATION_SOURCE });
    expect(await db.schema.hasTable('session_history')).toBe(false);
  });

  test('refusals: an unknown task is a 404, a cursor it did not return a 400', async () => {
    const h = await createTurnHarness(cleanup);
    const taskId = await h.agentTask();
    const api = await h.serve();
    expect(await page(api, taskId)).toEqual({ task_id: taskId, entries: [], next_cursor: null });
    expect((await api.request('GET', '/api/tasks/nope/timeline')).status).toBe(404);
    const forged = Buffer.from(JSON.stringify({ t: 'not a time', r: 0, k: 1 })).toString('base64url');
    const refused = await api.request('GET', `/api/tasks/${taskId}/timeline?cursor=${forged}`);
    expect(refused.status).toBe(400);
    expect((await api.request('GET', `/api/tasks/${taskId}/timeline?limit=0`)).status).toBe(400);
  });
});
