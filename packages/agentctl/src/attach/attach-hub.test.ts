import type { WireBackendMessageOutput } from '@kandev/protocol';
import type { ToolCall } from '../mcp/tool-call-forwarder';
import { FakeLink, hello } from '../testing/fake-backend-link';
import { silentLogger } from '../testing/silent-logger';
import { AttachHub } from './attach-hub';

const TIMEOUT_MS = 1_000;

const CALL: ToolCall = {
  sessionId: 's-1',
  taskId: 'task-1',
  workspaceId: 'ws-1',
  revision: 3,
  tool: 'get_task_kandev',
  arguments: { task_id: 'task-other' },
};

const output = (callId: string, text: string, extra: Partial<{ structured_json: string; is_error: boolean }> = {}) =>
  ({
    kind: 'tool_result',
    tool_result: {
      call_id: callId,
      outcome: 'output',
      output: { text, structured_json: '', is_error: false, ...extra },
    },
  }) as WireBackendMessageOutput;
const toolError = (callId: string, code: string, message: string): WireBackendMessageOutput => ({
  kind: 'tool_result',
  tool_result: { call_id: callId, outcome: 'error', error: { code, message } },
});
const progress = (callId: string, message = 'working'): WireBackendMessageOutput => ({
  kind: 'tool_progress',
  tool_progress: { call_id: callId, message },
});

function setup() {
  let n = 0;
  const hub = new AttachHub({
    permissionTimeoutMs: 60_000,
    timeoutMs: TIMEOUT_MS,
    log: silentLogger,
    agentctlId: 'agentctl-1',
    newCallId: () => `call-${++n}`,
  });
  const attach = (id: string, backendId = 'backend-a') => {
    const link = new FakeLink(id);
    hub.opened(link);
    hub.receive(link, hello(backendId));
    return link;
  };
  return { hub, attach };
}

function text(result: { content: { text: string }[] }): string {
  return result.content.map((c) => c.text).join('\n');
}

describe('AttachHub', () => {
  afterEach(() => jest.useRealTimers());

  test('hello is answered with accepted; a call goes out with the bound identity and the agent arguments', async () => {
    const { hub, attach } = setup();
    const link = attach('l1');
    expect(link.sent[0]).toEqual({ accepted: { agentctl_id: 'agentctl-1' } });
    expect(hub.attached).toBe(true);

    const pending = hub.forward(CALL);
    expect(link.sent[1]).toEqual({
      tool_call: {
        call_id: 'call-1',
        session_id: 's-1',
        task_id: 'task-1',
        workspace_id: 'ws-1',
        tool_name: 'get_task_kandev',
        arguments_json: '{"task_id":"task-other"}',
        revision: '3',
      },
    });
    hub.receive(link, output('call-1', 'the task', { structured_json: '{"id":"task-other"}' }));
    await expect(pending).resolves.toEqual({
      content: [{ type: 'text', text: 'the task' }],
      structuredContent: { id: 'task-other' },
    });
    expect(hub.inFlight).toBe(0);
  });

  test('ToolOutput is_error stays an isError result; ToolError becomes one line with its code', async () => {
    const { hub, attach } = setup();
    const link = attach('l1');
    const first = hub.forward(CALL);
    const second = hub.forward(CALL);
    hub.receive(link, output(link.callId(0), 'task t-9 does not exist; list tasks first', { is_error: true }));
    hub.receive(link, toolError(link.callId(1), 'not_found', 'tool get_task_kandev is\nnot served'));
    expect(await first).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'task t-9 does not exist; list tasks first' }],
    });
    const refused = await second;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toBe('get_task_kandev failed (not_found): tool get_task_kandev is not served');
    expect(refused.structuredContent).toEqual({
      error: { code: 'not_found', message: 'tool get_task_kandev is not served', tool: 'get_task_kandev' },
    });
  });

  test('no backend attached: fails fast with the clear no-backend result and sends nothing', async () => {
    const { hub } = setup();
    const result = await hub.forward(CALL);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/No backend is attached to agentctl, so get_task_kandev was not performed/);
  });

  test('progress restarts the inactivity timeout and is relayed; silence times the call out', async () => {
    jest.useFakeTimers();
    const { hub, attach } = setup();
    const link = attach('l1');
    const relayed: string[] = [];
    let settled = false;
    const pending = hub.forward(CALL, { onProgress: (m) => relayed.push(m) });
    void pending.then(() => (settled = true));

    jest.advanceTimersByTime(TIMEOUT_MS - 1);
    hub.receive(link, progress(link.callId(), 'still working'));
    jest.advanceTimersByTime(TIMEOUT_MS - 1);
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(relayed).toEqual(['still working']);

    jest.advanceTimersByTime(1);
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^The backend did not answer within 1000 ms, so the outcome of get_task_kandev/);
    // A late answer settles nothing.
    hub.receive(link, output(link.callId(), 'late'));
    expect(hub.inFlight).toBe(0);
  });

  test('a dropped stream fails its in-flight calls at once; later calls fail fast', async () => {
    const { hub, attach } = setup();
    const link = attach('l1');
    const a = hub.forward(CALL);
    const b = hub.forward({ ...CALL, tool: 'list_tasks_kandev' });
    hub.closed(link, 'dropped');
    expect(text(await a)).toMatch(/connection dropped while get_task_kandev was running/);
    expect(text(await b)).toMatch(/connection dropped while list_tasks_kandev was running/);
    expect(hub.attached).toBe(false);
    expect(text(await hub.forward(CALL))).toMatch(/No backend is attached/);
  });

  test('the latest hello wins: the older stream is ended, its calls fail, its late answers are ignored', async () => {
    const { hub, attach } = setup();
    const old = attach('old', 'backend-a');
    const inFlight = hub.forward(CALL);
    const fresh = attach('new', 'backend-b');
    expect(old.ended?.code).toBe('failed_precondition');
    expect(text(await inFlight)).toMatch(/connection dropped/);

    const next = hub.forward(CALL);
    expect(fresh.sent.filter((m) => m.tool_call)).toHaveLength(1);
    hub.receive(old, output(fresh.callId(), 'from the old stream'));
    hub.closed(old, 'ended');
    expect(hub.attached).toBe(true);
    hub.receive(fresh, output(fresh.callId(), 'from the new stream'));
    expect(text(await next)).toBe('from the new stream');
  });

  test('only the stream that carried a call can answer or extend it', async () => {
    jest.useFakeTimers();
    const { hub, attach } = setup();
    const link = attach('l1');
    const stranger = new FakeLink('l2');
    hub.opened(stranger);
    const pending = hub.forward(CALL);
    hub.receive(stranger, output(link.callId(), 'forged'));
    expect(stranger.ended?.message).toMatch(/tool_result before hello/);
    jest.advanceTimersByTime(TIMEOUT_MS);
    expect(text(await pending)).toMatch(/did not answer within/);
  });

  test('the agent aborting drops the pending call', async () => {
    const { hub, attach } = setup();
    const link = attach('l1');
    const controller = new AbortController();
    const pending = hub.forward(CALL, { signal: controller.signal });
    controller.abort();
    expect(text(await pending)).toMatch(/was cancelled/);
    expect(hub.inFlight).toBe(0);
    hub.receive(link, output(link.callId(), 'late'));
    expect(hub.inFlight).toBe(0);
  });

  test('a write failure fails the call at once instead of waiting for the timeout', async () => {
    const { hub, attach } = setup();
    const link = attach('l1');
    link.broken = true;
    expect(text(await hub.forward(CALL))).toMatch(/connection dropped/);
    expect(hub.inFlight).toBe(0);
  });

  test('protocol violations end the stream: hello without backend id, empty message', () => {
    const { hub } = setup();
    const a = new FakeLink('a');
    hub.opened(a);
    hub.receive(a, { kind: 'hello', hello: { backend_id: '' } });
    expect(a.ended?.code).toBe('invalid_argument');
    expect(hub.attached).toBe(false);
    const b = new FakeLink('b');
    hub.opened(b);
    hub.receive(b, {});
    expect(b.ended?.message).toMatch(/empty BackendMessage/);
  });

  test('close ends every open stream and fails what is in flight', async () => {
    const { hub, attach } = setup();
    const link = attach('l1');
    const idle = new FakeLink('idle');
    hub.opened(idle);
    const pending = hub.forward(CALL);
    hub.close();
    expect([link.ended?.code, idle.ended?.code]).toEqual(['unavailable', 'unavailable']);
    expect(text(await pending)).toMatch(/connection dropped/);
    expect(hub.attached).toBe(false);
  });
});
