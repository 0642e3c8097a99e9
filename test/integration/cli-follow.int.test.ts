// `kandev follow` as a child process: against a real backend's live stream with the test agent (the
// operator's prompt, the agent's reply and the session's state changes show up), and across a dropped
// stream, which it resumes with Last-Event-ID (a stub server drops it: a real backend never does on cue).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startCli } from '../helpers/cli';
import { useCleanup } from '../helpers/cleanup';

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
    expect(follow.text()).toContain('20:00:04 session s1 waiting_for_input → running');
    expect(follow.text()).toMatch(/resumed after event 2/);
    expect(connections).toEqual([
      { lastEventId: undefined, query: '?session_id=s1' },
      { lastEventId: '2', query: '?session_id=s1' },
    ]);
  });
});
