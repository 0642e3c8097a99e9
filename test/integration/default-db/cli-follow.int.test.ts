// `kandev follow` as a child process: against a real backend's live stream with the test agent (the
// operator's prompt, the agent's reply and the session's state changes show up), and across a dropped
// stream, which it resumes with Last-Event-ID (a stub server drops it: a real backend never does on cue).
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { AgentRuntimeApi, agentScript, TEST_AGENT_MAIN, waitForAgentReady } from '../../helpers/agent-runtime';
import { BackendApi } from '../../helpers/backend-api';
import { type CliEnv, cliJson, runCli, startCli } from '../../helpers/cli';
import { useCleanup } from '../../helpers/cleanup';
import { startBackend, stopProcess } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

function frame(id: number, type: string, data: Record<string, unknown>): string {
  const event = {
    id: String(id),
    type,
    at: '2026-12-01T20:00:0' + String(id) + '.000Z',
    task_id: 't1',
    session_id: 's1',
    data,
  };
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(event)}\n\n`;
}

const message = (id: number, author: string, content: string) =>
  frame(id, 'message.created', {
    message: {
      id: `m${id}`,
      task_id: 't1',
      session_id: 's1',
      type: 'message',
      author,
      content,
      metadata: {},
      created_at: '2026-12-01T20:00:00.000Z',
    },
  });

describe('kandev follow', () => {
  const cleanup = useCleanup();

  /** A real backend and a task whose profile runs the test agent, launched and ready for a prompt. */
  async function agentSession() {
    const daemon = await startBackend(cleanup);
    cleanup.defer(() => stopProcess(daemon.child, { graceMs: 10_000 }));
    const kandev: CliEnv = { url: daemon.ready.url, token: daemon.apiToken };
    const runtime = new AgentRuntimeApi(new BackendApi(daemon.ready.url, daemon.apiToken), cleanup, daemon.logs);
    await cliJson(kandev, ['workspaces', 'create', 'demo']);
    const args = ['--arg', TEST_AGENT_MAIN, '--arg', '--script', '--arg', agentScript('cli')];
    const profile = await cliJson<{ id: string }>(kandev, [
      'profiles',
      'create',
      'agent',
      '-c',
      process.execPath,
      ...args,
    ]);
    const task = await cliJson<{ id: string }>(kandev, ['tasks', 'create', 'Importer', '--profile', profile.id]);
    const { session_id: sessionId } = await cliJson<{ session_id: string }>(kandev, ['launch', task.id]);
    await waitForAgentReady(runtime, sessionId);
    return { kandev, taskId: task.id, sessionId, dataDir: daemon.dataDir };
  }

  test('follows a session live: the prompt, the state changes and the agent’s reply', async () => {
    const { kandev, sessionId } = await agentSession();
    const follow = startCli(cleanup, kandev, ['follow', sessionId]);
    await follow.waitFor(`following session ${sessionId}`, 'the stream to open');
    expect((await runCli(kandev, ['prompt', sessionId, 'hello there'])).code).toBe(0);
    await follow.waitFor(/agent: echo: hello there/, 'the agent’s reply');
    const lines = follow.text().split('\n');
    const index = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
    expect(index(/operator: hello there$/)).toBeGreaterThanOrEqual(0);
    expect(index(/waiting_for_input → running$/)).toBeGreaterThan(index(/operator: hello there$/));
    expect(index(/agent: echo: hello there$/)).toBeGreaterThan(index(/waiting_for_input → running$/));
    // Piped: plain text.
    expect(follow.text()).not.toContain('\u001b[');
  });

  test('prints the agent’s text as it streams: half an answer shows while its turn still runs', async () => {
    const { kandev, taskId, sessionId, dataDir } = await agentSession();
    const follow = startCli(cleanup, kandev, ['follow', sessionId]);
    await follow.waitFor(`following session ${sessionId}`, 'the stream to open');
    expect((await runCli(kandev, ['prompt', sessionId, 'STREAM an answer'])).code).toBe(0);
    await follow.waitFor(/agent: first half,/, 'the first half of the answer');
    // The agent holds its turn until the file below exists: the turn has not ended.
    expect(follow.text()).not.toMatch(/running → waiting_for_input/);
    // The agent works in its task workspace (no checkouts here): the release file goes there.
    writeFileSync(join(dataDir, 'workspaces', taskId, 'release-stream'), '');
    await follow.waitFor(/running → waiting_for_input/, 'the turn to end');
    // The rest continued the same line: only what was new was printed.
    const lines = follow.text().split('\n');
    expect(lines.filter((line) => line.includes('first half'))).toEqual([
      expect.stringMatching(/ agent: first half, then the rest\.$/),
    ]);
  });

  test('follows a task as JSON lines from the start (--replay), through a question and its answer', async () => {
    const { kandev, taskId, sessionId } = await agentSession();
    const follow = startCli(cleanup, kandev, ['--json', 'follow', taskId, '--replay']);
    await follow.waitFor(`following task ${taskId}`, 'the stream to open');
    expect((await runCli(kandev, ['prompt', sessionId, 'ASK now'])).code).toBe(0);
    await follow.waitFor('"content":"ask_user_question_kandev"', 'the agent’s question tool call');
    // The tool call's notice and the question's row travel separately: wait for the row.
    const question = await waitUntil(
      async () => (await cliJson<{ questions: { id: string }[] }>(kandev, ['questions'])).questions[0],
      { timeoutMs: 20_000, intervalMs: 100, what: 'the question to be listed' },
    );
    expect((await runCli(kandev, ['answer', question.id, '--option', '2'])).code).toBe(0);
    await follow.waitFor('You chose Postgres.', 'the agent’s reply');
    const events = follow
      .text()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { id: string; type: string; task_id: string });
    expect(events.every((event) => event.task_id === taskId)).toBe(true);
    const ids = events.map((event) => Number(event.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining([
        'session.state_changed',
        'tools.changed',
        'message.created',
        'queue.changed',
        'question.created',
        'question.answered',
      ]),
    );
  });

  test('a dropped stream is resumed with Last-Event-ID: nothing lost, nothing twice', async () => {
    const connections: { lastEventId: string | undefined; query: string }[] = [];
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/api/sessions/s1') {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            id: 's1',
            task_id: 't1',
            state: 'waiting_for_input',
            executor: 'local',
            revision: 1,
            applied_revision: 1,
            created_at: 'x',
            last_error: null,
            tools: [],
            mcp_url: null,
            agent: null,
          }),
        );
        return;
      }
      if (url.pathname !== '/api/events') {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { code: 'not_found', message: 'nope', request_id: 'r' } }));
        return;
      }
      const lastEventId = req.headers['last-event-id'];
      connections.push({ lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined, query: url.search });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (connections.length === 1) {
        res.write(': ping\n\n' + message(1, 'operator', 'first') + message(2, 'agent', 'second'));
        // Dropped mid-stream, after a partial frame.
        res.write('id: 3\nevent: message.created\n', () => res.socket?.destroy());
      } else {
        // The backend's head frame after the (empty) replay: a cursor, never printed.
        res.write('retry: 3000\nid: 2\nevent: stream.head\ndata: {"head":"2"}\n\n');
        res.write(
          frame(3, 'tools.changed', {
            revision: 2,
            providers: ['github'],
            added: ['get_task_pr_automation_kandev'],
            removed: [],
          }),
        );
        res.write(
          frame(4, 'session.state_changed', {
            state: 'running',
            previous_state: 'waiting_for_input',
            executor: 'local',
          }),
        );
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.defer(() => new Promise((resolve) => server.close(resolve)));
    cleanup.defer(() => server.closeAllConnections());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const follow = startCli(cleanup, { url, token: 'kdv_test' }, ['follow', 's1']);
    await follow.waitFor('waiting_for_input → running', 'the events after the reconnect');
    const lines = follow.text().split('\n');
    expect(lines.filter((line) => / (operator|agent): /.test(line))).toEqual([
      '20:00:01 operator: first',
      '20:00:02 agent: second',
    ]);
    expect(follow.text()).toContain('20:00:03 tools revision 2 (providers github): +get_task_pr_automation_kandev');
    expect(follow.text()).toContain('20:00:04 session s1: waiting_for_input → running');
    expect(follow.text()).toMatch(/resumed after event 2/);
    expect(follow.text()).not.toMatch(/stream\.head|skipped/);
    expect(connections).toEqual([
      { lastEventId: undefined, query: '?session_id=s1' },
      { lastEventId: '2', query: '?session_id=s1' },
    ]);
  });
});
