// The backend's Attach client routes session events: against a hand-made Attach server on a loopback
// port, well-formed events (streamed text, plans and notices too) reach the event sink in arrival order
// with the agentctl address, a malformed one is dropped (logged), and tool calls still go to the
// dispatcher.
import * as grpc from '@grpc/grpc-js';
import {
  loadAgentctlProto,
  type SessionEvent,
  type WireAgentctlMessage,
  type WireBackendMessageOutput,
} from '@kandev/protocol';
import { AttachClient, createLogger } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { waitUntil } from '../../helpers/wait';

const HEAD = { occurred_at: '2026-12-01T00:00:00.000Z' };

/** What the hand-made agentctl sends once the backend said hello. */
const SCRIPT: WireAgentctlMessage[] = [
  { accepted: { agentctl_id: 'fake' } },
  {
    session_event: {
      ...HEAD,
      session_id: 's1',
      seq: '1',
      agent_started: { pid: 4, acp_session_id: 'a', loaded: false },
    },
  },
  { session_event: { ...HEAD, session_id: 's1', seq: '2' } }, // no body: malformed
  { session_event: { ...HEAD, session_id: '', seq: '3', turn_started: { prompt_id: 'p' } } }, // no session: malformed
  { session_event: { ...HEAD, session_id: 's1', seq: '4', turn_started: { prompt_id: 'p1' } } },
  {
    session_event: {
      ...HEAD,
      session_id: 's1',
      seq: '5',
      tool_call: { prompt_id: 'p1', tool_call_id: 't', title: 'x', status: 'bogus', input_json: '', output_text: '' },
    },
  }, // unknown tool call status: malformed
  {
    tool_call: {
      call_id: 'c1',
      session_id: 's1',
      task_id: 't',
      workspace_id: 'w',
      tool_name: 'get_task_kandev',
      arguments_json: '{}',
      revision: '1',
    },
  },
  {
    session_event: { ...HEAD, session_id: 's1', seq: '6', agent_message: { prompt_id: 'p1', text: 'hi', segment: 1 } },
  },
  {
    session_event: {
      ...HEAD,
      session_id: 's1',
      seq: '7',
      plan: { prompt_id: 'p1', entries: [{ content: 'Fix it', priority: 'high', status: 'in_progress' }] },
    },
  },
  {
    session_event: {
      ...HEAD,
      session_id: 's1',
      seq: '8',
      agent_notice: { code: 'bogus', level: 'warning', message: 'm' },
    },
  }, // unknown notice code: malformed
  {
    session_event: {
      ...HEAD,
      session_id: 's1',
      seq: '9',
      agent_notice: { code: 'mcp_not_connected', level: 'warning', message: 'no kandev tools' },
    },
  },
];

async function startFakeAttachServer(cleanup: ReturnType<typeof useCleanup>): Promise<string> {
  const server = new grpc.Server();
  const AgentCtl = loadAgentctlProto().kandev.agentctl.v1.AgentCtl;
  server.addService(AgentCtl.service, {
    Attach: (call: grpc.ServerDuplexStream<WireBackendMessageOutput, WireAgentctlMessage>) => {
      call.on('data', (message: WireBackendMessageOutput) => {
        if (message.hello) for (const out of SCRIPT) call.write(out);
      });
      call.on('end', () => call.end());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err === null ? resolve(bound) : reject(err),
    ),
  );
  cleanup.defer(() => server.forceShutdown());
  return `127.0.0.1:${port}`;
}

describe('Attach client: session events', () => {
  const cleanup = useCleanup();

  test('well-formed events reach the sink in order with the agentctl address; malformed ones are dropped', async () => {
    const grpcAddress = await startFakeAttachServer(cleanup);
    const events: { event: SessionEvent; address: string }[] = [];
    const calls: unknown[] = [];
    const client = new AttachClient({
      endpoint: { grpcAddress, mcpBaseUrl: 'http://127.0.0.1:1', controlToken: 'x' },
      backendId: 'backend-test',
      sink: { dispatch: (request) => Promise.resolve(void calls.push(request)) },
      events: { handle: (event, address) => Promise.resolve(void events.push({ event, address })) },
      backoff: { baseMs: 50, maxDelayMs: 100 },
      logger: createLogger('silent'),
    });
    cleanup.defer(() => client.stop());
    client.start();

    await waitUntil(() => events.length === 5 && calls.length === 1, { timeoutMs: 5_000, what: 'the routed messages' });
    expect(events.map((e) => [e.event.seq, e.event.kind, e.address])).toEqual([
      [1, 'agent_started', grpcAddress],
      [4, 'turn_started', grpcAddress],
      [6, 'agent_message', grpcAddress],
      [7, 'plan', grpcAddress],
      [9, 'agent_notice', grpcAddress],
    ]);
    expect(events[2]?.event).toMatchObject({ segment: 1, text: 'hi' });
    expect(events[4]?.event).toMatchObject({ code: 'mcp_not_connected', level: 'warning', message: 'no kandev tools' });
    expect(events[0]?.event).toMatchObject({ sessionId: 's1', pid: 4, acpSessionId: 'a', loaded: false });
    expect(calls).toEqual([expect.objectContaining({ call_id: 'c1', tool_name: 'get_task_kandev' })]);
    expect(client.attached).toBe(true);
  });
});
