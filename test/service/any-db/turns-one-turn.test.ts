// One turn end to end in process (real SQLite, fake agentctl): launch an agent session, queue an
// operator prompt over REST, the agent's events drive it to completion; the conversation records the
// prompt, the agent's text and its tool call. Plus the REST surface of prompts, cancel and stop.
import { REDACTED_ENV_VALUE } from '@kandev/protocol';
import type { PromptItemBody, QueuedPromptBody, SessionTurnBody } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { createTurnHarness, finishWhenRunning } from '../../helpers/turn-harness';
import { waitUntil } from '../../helpers/wait';
import { jsonColumn, jsonColumnText } from '@kandev/backend/testing';

interface ErrorBody {
  error: { code: string; message: string };
}

describe('one turn (in process)', () => {
  const cleanup = useCleanup();

  test('launch: agentctl gets the real env; the backend stores and shows it redacted', async () => {
    const h = await createTurnHarness(cleanup);
    h.agentctl.autoStart = false;
    const taskId = await h.agentTask({ localPath: '/src/app' });
    const launched = await h.sessions.launch(taskId, { surface: 'kanban_task', owns_task_title: false });
    const id = launched.session.id;

    expect(h.agentctl.held.get(id)?.agent).toEqual({
      command: 'test-agent',
      args: ['--script', 'x.json'],
      env: { AGENT_API_KEY: 'secret-1' },
      cwd: null, // this harness configures no task workspaces (task-workspaces.test.ts: the agent's cwd)
      supportsMcp: true,
      resumeAcpSessionId: null,
      permissionPolicy: 'ask',
    });
    const stored: { launch_config: unknown } = await h.db('sessions').where({ id }).first('launch_config');
    expect(jsonColumnText(stored.launch_config)).not.toContain('secret-1');
    const api = await h.serve();
    const view = await api.request<{ launch_config: { agent: { env: Record<string, string> } } }>(
      'GET',
      `/api/sessions/${id}`,
    );
    expect(view.body.launch_config.agent.env).toEqual({ AGENT_API_KEY: REDACTED_ENV_VALUE });
    expect(JSON.stringify(view.body)).not.toContain('secret-1');

    // With an agent the session stays starting until agent_started.
    expect(await h.state(id)).toBe('starting');
    h.agentctl.startAgent(id);
    await h.untilState(id, 'waiting_for_input');
    const acp = h.agentctl.agents.get(id)?.acpSessionId;
    expect(await h.uow.read.sessions.findById(id)).toMatchObject({ acpSessionId: acp, agentctlAddress: '127.0.0.1:1' });
  });

  test('a provider change while the agent starts: not pushed to a starting session, pushed once it is ready', async () => {
    const h = await createTurnHarness(cleanup);
    h.agentctl.autoStart = false;
    const launched = await h.sessions.launch(await h.agentTask(), { surface: 'kanban_task', owns_task_title: false });
    const id = launched.session.id;
    // What a committed source batch does to a live session: a new desired revision.
    await h.uow.read.sessions.updateDesiredMany([{ id, revision: 2 }], ['github'], 'now');
    await h.turns.lanes.idle();
    expect(h.agentctl.pushes()).toEqual([]);

    h.agentctl.startAgent(id);
    await h.untilState(id, 'waiting_for_input');
    await waitUntil(async () => (await h.uow.read.sessions.findById(id))?.appliedRevision === 2, {
      timeoutMs: 5_000,
      what: 'the catch-up push',
    });
    expect(h.agentctl.pushes()).toEqual([`ProviderUpdate ${id} github 2`]);
  });

  test('a prompt posted over REST runs one turn; the session ends it waiting for input', async () => {
    const h = await createTurnHarness(cleanup);
    const id = await h.readySession();
    const api = await h.serve();

    const posted = await api.queuePrompt(id, 'Add a README.');
    expect(posted.status).toBe(202);
    expect(posted.body).toEqual<QueuedPromptBody>({
      queued_prompt_id: expect.any(String),
      message_id: expect.any(String),
      session_id: id,
      status: 'queued',
      superseded_question_ids: [],
    });
    const promptId = posted.body.queued_prompt_id;
    await finishWhenRunning(h, id, promptId, { text: 'Done: README added.', toolCall: { id: 'tc1', title: 'Write' } });
    await h.untilDrained(id);
    await h.untilState(id, 'waiting_for_input');

    expect(h.agentctl.delivered).toEqual([{ sessionId: id, promptId, text: 'Add a README.' }]);
    const items = await api.prompts(id);
    expect(items).toEqual<PromptItemBody[]>([
      {
        id: promptId,
        session_id: id,
        prompt: 'Add a README.',
        source: 'operator',
        priority: 'normal',
        status: 'completed',
        stop_reason: 'end_turn',
        delivered: true,
        error: null,
        created_at: expect.any(String),
        dispatched_at: expect.any(String),
        finished_at: expect.any(String),
      },
    ]);
    const messages = await h.db('messages').where({ session_id: id }).orderBy('seq');
    expect(
      messages.map((m: { type: string; author: string; content: string }) => [m.type, m.author, m.content]),
    ).toEqual([
      ['message', 'operator', 'Add a README.'],
      ['tool_call', 'agent', 'Write'],
      ['message', 'agent', 'Done: README added.'],
    ]);
    const [, toolCall, reply] = messages as { metadata: unknown }[];
    expect(jsonColumn(toolCall?.metadata)).toEqual({
      prompt_id: promptId,
      tool_call_id: 'tc1',
      status: 'completed',
      kind: null, // the fake reports no ACP tool kind, and no file changes
      input: { path: 'a.ts' },
      output: 'ok',
      diffs: [],
      finished_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(jsonColumn(reply?.metadata)).toEqual({ prompt_id: promptId, session_id: id });

    const view = await api.sessionTurns(id);
    expect(view).toMatchObject({
      state: 'waiting_for_input',
      last_error: null,
      acp_session_id: expect.stringMatching(/^acp-/),
      agent: { status: 'ready', pid: expect.any(Number), loaded: false, current_prompt_id: null, exit_reason: null },
    });
  });

  test('an MCP-only session waits for input at once; its prompts stay queued, never dispatched', async () => {
    const h = await createTurnHarness(cleanup);
    const launched = await h.sessions.launch(await h.agentTask({ agent: false }), {
      surface: 'kanban_task',
      owns_task_title: false,
    });
    const id = launched.session.id;
    expect(launched.session.state).toBe('waiting_for_input');
    await h.prompt(id, 'nobody reads this yet');
    await h.turns.drainer.kick(id);
    expect(await h.queue(id)).toMatchObject([{ status: 'queued', dispatchedAt: null }]);
    expect(h.agentctl.promptCalls).toEqual([]);
  });

  test('REST: strict bodies, 404 unknown session, 409 for a completed or cancelled one, a failed one accepts', async () => {
    const h = await createTurnHarness(cleanup);
    const id = await h.readySession();
    const api = await h.serve();
    const post = (body: unknown, session = id) =>
      api.request<ErrorBody>('POST', `/api/sessions/${session}/prompts`, body);

    for (const body of [{}, { prompt: '' }, { prompt: 'x'.repeat(100_001) }, { prompt: 'x', priority: 1 }, [1]]) {
      const refused = await post(body);
      expect([refused.status, refused.body.error.code]).toEqual([400, 'invalid_argument']);
    }
    expect((await post({ prompt: 'x' }, 'ghost')).status).toBe(404);
    expect((await api.request('GET', '/api/sessions/ghost/prompts')).status).toBe(404);
    expect((await api.request('POST', `/api/sessions/${id}/stop`, { now: true })).status).toBe(400);
    expect((await api.request('POST', `/api/sessions/${id}/cancel`, { hard: true })).status).toBe(400);
    expect(await h.queue(id)).toEqual([]); // nothing was queued by the refused calls

    await h.db('sessions').where({ id }).update({ state: 'failed' });
    expect((await post({ prompt: 'after a resume' })).status).toBe(202);
    for (const state of ['completed', 'cancelled']) {
      await h.db('sessions').where({ id }).update({ state });
      const refused = await post({ prompt: 'x' });
      expect([refused.status, refused.body.error.code]).toEqual([409, 'failed_precondition']);
    }
    expect(await h.queue(id)).toHaveLength(1);
  });

  test('cancel: the running turn ends completed with stop reason cancelled, and the queue moves on', async () => {
    const h = await createTurnHarness(cleanup);
    const id = await h.readySession();
    const api = await h.serve();
    const first = await h.prompt(id, 'long job');
    const second = await h.prompt(id, 'next job');
    await h.untilRunning(id, first);

    const cancelled = await api.cancelTurn(id);
    expect(cancelled).toEqual({ status: 200, body: { cancelled: true, prompt_id: first } });
    await finishWhenRunning(h, id, second);
    const drained = await h.untilDrained(id);
    expect(drained.map((p) => [p.id, p.status, p.stopReason])).toEqual([
      [first, 'completed', 'cancelled'],
      [second, 'completed', 'end_turn'],
    ]);
    expect(await api.cancelTurn(id)).toEqual({ status: 200, body: { cancelled: false, prompt_id: null } });
  });

  test('stop: no agent process is left, the session is cancelled, its turn fails, queued prompts wait for a resume', async () => {
    const h = await createTurnHarness(cleanup);
    const id = await h.readySession();
    const api = await h.serve();
    const running = await h.prompt(id, 'one');
    const waiting = await h.prompt(id, 'two');
    await h.untilRunning(id, running);
    expect(h.agentctl.agentPid(id)).not.toBeNull();

    const stopped = await api.stopSession(id);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject<Partial<SessionTurnBody>>({ state: 'cancelled', agent: null });
    expect(h.agentctl.calls).toContain(`StopSession ${id}`);
    expect(h.agentctl.agentPid(id)).toBeNull();
    expect((await h.queue(id)).map((p) => [p.id, p.status, p.error])).toEqual([
      [running, 'failed', 'session stopped'],
      [waiting, 'queued', null],
    ]);
    // agentctl's agent_exited(expected) changes nothing; a second stop is idempotent.
    expect((await api.stopSession(id)).body.state).toBe('cancelled');
    expect((await api.cancelTurn(id)).status).toBe(409);

    const resumed = await api.resumeSession(id);
    expect(resumed.status).toBe(200);
    await finishWhenRunning(h, id, waiting);
    await h.untilDrained(id);
    await h.untilState(id, 'waiting_for_input');
    expect(h.agentctl.delivered.map((d) => d.promptId)).toEqual([running, waiting]);
  });

  test('tool call notices: one conversation entry per tool call id, updated as the call progresses', async () => {
    const h = await createTurnHarness(cleanup);
    const id = await h.readySession();
    const promptId = await h.prompt(id, 'go');
    await finishWhenRunning(h, id, promptId, { toolCall: { id: 'tc-9', title: 'Read file' } });
    await h.untilDrained(id);
    const calls = await waitUntil(
      async () => {
        const rows = await h.db('messages').where({ session_id: id, type: 'tool_call' });
        return rows.length > 0 ? rows : undefined;
      },
      { timeoutMs: 5_000, what: 'the tool call entry' },
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ tool_call_id: 'tc-9', content: 'Read file', author: 'agent' });
  });
});
