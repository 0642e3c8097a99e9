// What an agent streams during a turn, recorded in process (real database, fake agentctl): text chunks
// appended into one entry per run of text (message.created, then message.updated with the whole text),
// a plan rewritten in place, tool calls with their kind and file changes, notices (a warning sets the
// session's last error without a state change), the agent's handshake in the session view, and a
// completed turn's warning kept on its prompt.
import { jsonColumn, type StoredEvent } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { createTurnHarness, type TurnHarness } from '../../helpers/turn-harness';

interface MessageRow {
  id: string;
  type: string;
  author: string;
  content: string;
  metadata: unknown;
}

async function conversation(h: TurnHarness, sessionId: string) {
  await h.turns.lanes.idle();
  const rows: MessageRow[] = await h.db('messages').where({ session_id: sessionId }).orderBy('seq');
  return rows.map((row) => ({ ...row, metadata: jsonColumn(row.metadata) as Record<string, unknown> }));
}

/** The message.* events of the session, in order: [type, entry id, content]. */
async function messageEvents(h: TurnHarness, sessionId: string): Promise<[string, string, string][]> {
  const events: StoredEvent[] = await h.uow.read.events.after(0, { sessionId }, 1000);
  return events
    .filter((event) => event.type.startsWith('message.'))
    .map((event) => {
      const message = event.data.message as { id: string; content: string };
      return [event.type, message.id, message.content];
    });
}

/** A ready session with a turn running for a new prompt. */
async function turnRunning(h: TurnHarness): Promise<{ id: string; promptId: string }> {
  const id = await h.readySession();
  const promptId = await h.prompt(id, 'fix the parser');
  await h.untilRunning(id, promptId);
  return { id, promptId };
}

/** The fake agentctl still runs the prompt's turn (it has not ended). */
function agentTurnRunning(h: TurnHarness, sessionId: string, promptId: string): boolean {
  return h.agentctl.agents.get(sessionId)?.currentPromptId === promptId;
}

const text = (segment: number, chunk: string) => ({ kind: 'agent_message' as const, segment, text: chunk });

describe('streamed agent output (in process)', () => {
  const cleanup = useCleanup();

  test('text chunks grow one entry per run of text, one event per burst; a run after a tool call is a new entry', async () => {
    const h = await createTurnHarness(cleanup);
    const { id, promptId } = await turnRunning(h);
    const call = { kind: 'tool_call' as const, toolCallId: 'tc1', title: 'Read parser.ts', toolKind: 'read' };
    const done = { inputJson: '', outputText: '', diffs: [] };
    // Two bursts: the pieces of a run that arrive together are written (and announced) once.
    h.agentctl.output(id, text(1, 'Let me '), text(1, 'look at '));
    await h.turns.lanes.idle();
    h.agentctl.output(
      id,
      text(1, 'the parser.'),
      { ...call, ...done, status: 'completed' },
      text(2, 'Fixed'),
      text(2, '.'),
    );
    h.agentctl.finishTurn(id);
    await h.untilDrained(id);

    const entries = (await conversation(h, id)).filter((m) => m.author === 'agent');
    expect(entries.map((m) => [m.type, m.content])).toEqual([
      ['message', 'Let me look at the parser.'],
      ['tool_call', 'Read parser.ts'],
      ['message', 'Fixed.'],
    ]);
    expect(entries[0]?.metadata).toEqual({ prompt_id: promptId, session_id: id, segment: 1 });
    expect(entries[2]?.metadata).toEqual({ prompt_id: promptId, session_id: id, segment: 2 });

    const [first, , second] = entries.map((m) => m.id);
    const agentEvents = (await messageEvents(h, id)).filter(([, entry]) => entry !== entries[1]?.id).slice(-3);
    expect(agentEvents).toEqual([
      ['message.created', first, 'Let me look at '],
      ['message.updated', first, 'Let me look at the parser.'],
      ['message.created', second, 'Fixed.'],
    ]);
  });

  test("a long answer's text can be read (REST and event) while its turn still runs", async () => {
    const h = await createTurnHarness(cleanup);
    const { id, promptId } = await turnRunning(h);
    const api = await h.serve();
    const pieces = Array.from({ length: 40 }, (_, i) => `part ${i} of a long answer. `);
    h.agentctl.output(id, ...pieces.slice(0, 20).map((piece) => text(1, piece)));
    await h.turns.lanes.idle();
    const taskId = (await h.uow.read.sessions.findById(id))?.taskId ?? '';
    const read = await api.request<{ messages: { type: string; content: string }[] }>(
      'GET',
      `/api/tasks/${taskId}/messages`,
    );
    const halfway = pieces.slice(0, 20).join('');
    expect(read.body.messages.filter((m) => m.type === 'message' && m.content === halfway)).toHaveLength(1);
    expect((await messageEvents(h, id)).at(-1)?.[2]).toBe(halfway);
    // The turn is still running: the text was there before its end.
    expect(agentTurnRunning(h, id, promptId)).toBe(true);
    h.agentctl.output(id, ...pieces.slice(20).map((piece) => text(1, piece)));
    h.agentctl.finishTurn(id);
    await h.untilDrained(id);
    const entries = (await conversation(h, id)).filter((m) => m.author === 'agent');
    expect(entries.map((m) => m.content)).toEqual([pieces.join('')]);
  });

  test('pieces that pile up behind a write join it; another event in between keeps its place', async () => {
    const h = await createTurnHarness(cleanup);
    const { id } = await turnRunning(h);
    const call = { kind: 'tool_call' as const, toolCallId: 'tc1', title: 'Read', toolKind: 'read', diffs: [] };
    h.agentctl.output(id, text(1, 'a'), text(1, 'b'), { ...call, status: 'pending', inputJson: '', outputText: '' });
    h.agentctl.output(id, text(1, 'c'), text(1, 'd'), text(2, 'x'), text(2, 'y'));
    await h.turns.lanes.idle();
    const entries = (await conversation(h, id)).filter((m) => m.author === 'agent');
    expect(entries.map((m) => [m.type, m.content])).toEqual([
      ['message', 'abcd'],
      ['tool_call', 'Read'],
      ['message', 'xy'],
    ]);
    // ab before the tool call, cd after it (its own write), xy once.
    const events = (await messageEvents(h, id)).slice(-4).map(([type, , content]) => [type, content]);
    expect(events).toEqual([
      ['message.created', 'ab'],
      ['message.created', 'Read'],
      ['message.updated', 'abcd'],
      ['message.created', 'xy'],
    ]);
  });

  test('segment 0 (an older agentctl): each event is a whole run, its own entry', async () => {
    const h = await createTurnHarness(cleanup);
    const { id } = await turnRunning(h);
    h.agentctl.output(id, text(0, 'one'), text(0, 'two'));
    h.agentctl.finishTurn(id);
    await h.untilDrained(id);
    const replies = (await conversation(h, id)).filter((m) => m.author === 'agent').map((m) => m.content);
    expect(replies).toEqual(['one', 'two']);
  });

  test("the turn's plan is one entry, replaced in place with each update", async () => {
    const h = await createTurnHarness(cleanup);
    const { id, promptId } = await turnRunning(h);
    const read = { content: 'Read the parser', priority: 'high' as const };
    const fix = { content: 'Fix the bug', priority: 'medium' as const };
    h.agentctl.output(id, {
      kind: 'plan',
      entries: [
        { ...read, status: 'in_progress' },
        { ...fix, status: 'pending' },
      ],
    });
    h.agentctl.output(id, {
      kind: 'plan',
      entries: [
        { ...read, status: 'completed' },
        { ...fix, status: 'in_progress' },
      ],
    });
    h.agentctl.finishTurn(id);
    await h.untilDrained(id);

    const plans = (await conversation(h, id)).filter((m) => m.type === 'plan');
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({ author: 'agent', content: '[x] Read the parser\n[~] Fix the bug' });
    expect(plans[0]?.metadata).toEqual({
      prompt_id: promptId,
      session_id: id,
      entries: [
        { ...read, status: 'completed' },
        { ...fix, status: 'in_progress' },
      ],
    });
    const events = (await messageEvents(h, id)).filter(([, entry]) => entry === plans[0]?.id);
    expect(events.map(([type, , content]) => [type, content])).toEqual([
      ['message.created', '[~] Read the parser\n[ ] Fix the bug'],
      ['message.updated', '[x] Read the parser\n[~] Fix the bug'],
    ]);
  });

  test('a tool call keeps its kind, input, output and file changes; a later notice with diffs replaces them', async () => {
    const h = await createTurnHarness(cleanup);
    const { id, promptId } = await turnRunning(h);
    const call = { kind: 'tool_call' as const, toolCallId: 'tc-edit', title: 'Edit parser.ts', toolKind: 'edit' };
    const diff = (newText: string) => ({ path: 'src/parser.ts', oldText: 'let i = 1;', newText, truncated: false });
    h.agentctl.output(
      id,
      {
        ...call,
        status: 'pending',
        inputJson: '{"path":"src/parser.ts"}',
        outputText: '',
        diffs: [diff('let i = 0;')],
      },
      { ...call, status: 'in_progress', toolKind: '', inputJson: '', outputText: 'editing', diffs: [] },
    );
    await h.turns.lanes.idle();
    const [pending] = (await conversation(h, id)).filter((m) => m.type === 'tool_call');
    expect(pending?.metadata).toMatchObject({
      kind: 'edit',
      output: 'editing',
      diffs: [{ path: 'src/parser.ts', old_text: 'let i = 1;', new_text: 'let i = 0;', truncated: false }],
    });

    h.agentctl.output(id, {
      ...call,
      status: 'completed',
      inputJson: '',
      outputText: 'edited',
      diffs: [diff('let i = 0; // fixed'), { path: 'NEW.md', oldText: null, newText: '# new', truncated: true }],
    });
    h.agentctl.finishTurn(id);
    await h.untilDrained(id);
    const calls = (await conversation(h, id)).filter((m) => m.type === 'tool_call');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.metadata).toEqual({
      prompt_id: promptId,
      tool_call_id: 'tc-edit',
      status: 'completed',
      finished_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      kind: 'edit',
      input: { path: 'src/parser.ts' },
      output: 'edited',
      diffs: [
        { path: 'src/parser.ts', old_text: 'let i = 1;', new_text: 'let i = 0; // fixed', truncated: false },
        { path: 'NEW.md', old_text: null, new_text: '# new', truncated: true },
      ],
    });
  });

  test('a warning notice sets the last error with no state change; an info notice is only recorded', async () => {
    const h = await createTurnHarness(cleanup);
    h.agentctl.agentSetup = { modeId: 'default', systemPromptDelivery: 'first_prompt', mcpConnected: false };
    const id = await h.readySession();
    const api = await h.serve();
    const warning = 'the agent never connected to its MCP server: it has no kandev tools';
    h.agentctl.notice(id, { code: 'tools_reloaded', level: 'info', message: 'tools reloaded' });
    await h.turns.lanes.idle();
    expect((await api.sessionTurns(id)).last_error).toBeNull();
    const statesBefore = (await h.uow.read.events.after(0, { sessionId: id }, 1000)).filter(
      (event) => event.type === 'session.state_changed',
    );

    h.agentctl.notice(id, { code: 'mcp_not_connected', level: 'warning', message: warning });
    await h.turns.lanes.idle();
    const view = await api.sessionTurns(id);
    expect(view).toMatchObject({ state: 'waiting_for_input', last_error: warning });
    expect(view.agent).toMatchObject({
      mode_id: 'default',
      system_prompt_delivery: 'first_prompt',
      mcp_connected: false,
    });
    const events = await h.uow.read.events.after(0, { sessionId: id }, 1000);
    expect(events.filter((event) => event.type === 'session.state_changed')).toEqual(statesBefore);
    const notices = (await conversation(h, id)).filter((m) => m.type === 'session_event');
    expect(notices.map((m) => [m.content, m.metadata])).toEqual([
      ['tools reloaded', { event: 'agent_notice', code: 'tools_reloaded', level: 'info' }],
      [warning, { event: 'agent_notice', code: 'mcp_not_connected', level: 'warning' }],
    ]);
    // Live: the warning is a message.created of a session_event entry.
    expect((await messageEvents(h, id)).at(-1)).toEqual(['message.created', notices[1]?.id, warning]);
  });

  test("a completed turn's warning is the prompt's error; the prompt still completed", async () => {
    const h = await createTurnHarness(cleanup);
    const { id, promptId } = await turnRunning(h);
    const api = await h.serve();
    const warning = 'the agent never connected to its MCP server: it had no kandev tools in this turn';
    h.agentctl.finishTurn(id, { warning });
    await h.untilDrained(id);
    await h.untilState(id, 'waiting_for_input');
    expect(await api.prompts(id)).toEqual([
      expect.objectContaining({ id: promptId, status: 'completed', stop_reason: 'end_turn', error: warning }),
    ]);
  });
});
