import pino from 'pino';
import { AppError, type Provider, type WireBackendMessage } from '@kandev/protocol';
import { type BackendMetrics, createBackendMetrics } from '../../platform/metrics/backend-metrics';
import type { AgentSession } from '../../runtime/sessions/agent-session';
import type { ToolCallContext, ToolHandler } from './tool-handler';
import { type ToolCallChannel, ToolCallDispatcher } from './tool-call-dispatcher';

const AGENTCTL = '127.0.0.1:7421';

function session(overrides: Partial<AgentSession> = {}): AgentSession {
  return {
    id: 's-1',
    taskId: 'task-1',
    state: 'running',
    executor: 'local',
    agentctlAddress: AGENTCTL,
    agentctlReplica: null,
    revision: 1,
    launchConfig: {
      sessionId: 's-1',
      taskId: 'task-1',
      workspaceId: 'ws-1',
      surface: 'kanban_task',
      questionCapability: 'user',
      providers: [],
      revision: 1,
      ownsTaskTitle: false,
      mcpToken: '',
      systemPrompt: '',
      agent: null,
    },
    appliedRevision: 1,
    appliedProviders: [],
    refreshError: null,
    refreshAttempts: 0,
    refreshedAt: null,
    mcpTokenHash: 'hash',
    surface: 'kanban_task',
    lastError: null,
    acpSessionId: null,
    createdAt: '2026-11-30T00:00:00.000Z',
    updatedAt: '2026-11-30T00:00:00.000Z',
    ...overrides,
  };
}

function office(providers: Provider[]): AgentSession {
  const base = session();
  return session({ surface: 'office_task', launchConfig: { ...base.launchConfig, surface: 'office_task', providers } });
}

function request(overrides: Record<string, unknown> = {}) {
  return {
    call_id: 'call-1',
    session_id: 's-1',
    task_id: 'task-1',
    workspace_id: 'ws-1',
    tool_name: 'get_task_kandev',
    arguments_json: '{"task_id":"task-forged"}',
    revision: '1',
    ...overrides,
  };
}

function setup(
  options: { sessions?: AgentSession[]; handler?: ToolHandler; heartbeatMs?: number; metrics?: BackendMetrics } = {},
) {
  const rows = new Map((options.sessions ?? [session()]).map((s) => [s.id, s]));
  const seen: { context: ToolCallContext; args: unknown }[] = [];
  const handler: ToolHandler =
    options.handler ??
    ((context, args) => {
      seen.push({ context, args });
      return Promise.resolve({ text: `task ${context.taskId}`, structured: { id: context.taskId } });
    });
  const dispatcher = new ToolCallDispatcher({
    findSession: (id) => Promise.resolve(rows.get(id)),
    handlers: { get_task_kandev: handler, update_task_pr_automation_kandev: handler },
    heartbeatMs: options.heartbeatMs ?? 5_000,
    logger: pino({ level: 'silent' }),
    metrics: options.metrics,
  });
  const sent: WireBackendMessage[] = [];
  const controller = new AbortController();
  const channel: ToolCallChannel = {
    agentctlAddress: AGENTCTL,
    signal: controller.signal,
    send: (message) => sent.push(message),
  };
  return { dispatcher, channel, sent, seen, controller };
}

const refusal = (code: string, message: string | RegExp) => [
  {
    tool_result: {
      call_id: 'call-1',
      error: { code, message: message instanceof RegExp ? expect.stringMatching(message) : message },
    },
  },
];

describe('ToolCallDispatcher', () => {
  afterEach(() => jest.useRealTimers());

  test('every call is counted by tool and outcome; a name without a handler is (unknown)', async () => {
    const metrics = createBackendMetrics();
    const { dispatcher, channel } = setup({ metrics });
    await dispatcher.dispatch(request(), channel);
    await dispatcher.dispatch(request({ task_id: 'task-2' }), channel);
    await dispatcher.dispatch(request({ tool_name: 'made_up_tool' }), channel);
    const text = await metrics.registry.getSingleMetricAsString('kandev_backend_tool_calls_total');
    expect(text).toContain('kandev_backend_tool_calls_total{tool="get_task_kandev",outcome="ok"} 1');
    expect(text).toContain('kandev_backend_tool_calls_total{tool="get_task_kandev",outcome="permission_denied"} 1');
    expect(text).toContain('kandev_backend_tool_calls_total{tool="(unknown)",outcome="not_found"} 1');
  });

  test('a call for a live session runs its handler with the bound identity; a forged task_id stays an argument', async () => {
    const { dispatcher, channel, sent, seen } = setup();
    await dispatcher.dispatch(request(), channel);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.context).toMatchObject({
      callId: 'call-1',
      toolName: 'get_task_kandev',
      sessionId: 's-1',
      taskId: 'task-1',
      workspaceId: 'ws-1',
    });
    expect(seen[0]?.args).toEqual({ task_id: 'task-forged' });
    expect(sent).toEqual([
      {
        tool_result: {
          call_id: 'call-1',
          output: { text: 'task task-1', structured_json: '{"id":"task-1"}', is_error: false },
        },
      },
    ]);
  });

  test.each<[string, AgentSession[], Record<string, unknown>, string, RegExp]>([
    ['session missing', [], {}, 'not_found', /^session s-1 does not exist$/],
    ['session cancelled', [session({ state: 'cancelled' })], {}, 'failed_precondition', /not live \(cancelled\)/],
    ['session failed', [session({ state: 'failed' })], {}, 'failed_precondition', /not live \(failed\)/],
    ['session completed', [session({ state: 'completed' })], {}, 'failed_precondition', /not live \(completed\)/],
    ['session never started', [session({ state: 'created' })], {}, 'failed_precondition', /not live \(created\)/],
    ['task differs', [session()], { task_id: 'task-2' }, 'permission_denied', /does not belong to task task-2/],
    ['workspace differs', [session()], { workspace_id: 'ws-2' }, 'permission_denied', /does not belong/],
    [
      'launched on another agentctl',
      [session({ agentctlAddress: '127.0.0.1:9999' })],
      {},
      'permission_denied',
      /not launched on this agentctl/,
    ],
    ['never launched anywhere', [session({ agentctlAddress: null })], {}, 'permission_denied', /not launched/],
    [
      'unknown tool',
      [session()],
      { tool_name: 'list_tasks_kandev' },
      'not_found',
      /^tool list_tasks_kandev is not served$/,
    ],
    [
      'provider tool on the office surface (discovery is not a security boundary)',
      [office(['github'])],
      { tool_name: 'update_task_pr_automation_kandev' },
      'permission_denied',
      /^update_task_pr_automation_kandev is not served to this session \(surface office_task/,
    ],
    [
      'provider tool without its provider in the launch config',
      [session()],
      { tool_name: 'update_task_pr_automation_kandev' },
      'permission_denied',
      /not served to this session \(surface kanban_task, question capability user, providers none/,
    ],
    ['bad arguments JSON', [session()], { arguments_json: '{nope' }, 'invalid_argument', /not valid JSON/],
    ['arguments not an object', [session()], { arguments_json: '[1]' }, 'invalid_argument', /not a JSON object/],
    ['blank ids', [session()], { session_id: '', task_id: '' }, 'invalid_argument', /session_id, task_id/],
  ])('refused: %s (no handler runs)', async (_name, sessions, overrides, code, message) => {
    const { dispatcher, channel, sent, seen } = setup({ sessions });
    await dispatcher.dispatch(request(overrides), channel);
    expect(seen).toHaveLength(0);
    expect(sent).toEqual(refusal(code, message));
  });

  test.each(['starting', 'running', 'waiting_for_input'] as const)(
    'a %s session is live: its calls are served (an agent calls tools during its handshake and turns)',
    async (state) => {
      const { dispatcher, channel, sent, seen } = setup({ sessions: [session({ state })] });
      await dispatcher.dispatch(request(), channel);
      expect(seen).toHaveLength(1);
      expect(sent).toEqual([
        { tool_result: { call_id: 'call-1', output: expect.objectContaining({ is_error: false }) } },
      ]);
    },
  );

  test("a handler's precheck runs before the served check, and the handler only after both", async () => {
    const order: string[] = [];
    const handler: ToolHandler = Object.assign(
      () => {
        order.push('handler');
        return Promise.resolve({ text: 'ok' });
      },
      {
        precheck: () => {
          order.push('precheck');
          return Promise.reject(new AppError('failed_precondition', 'nobody to ask'));
        },
      },
    );
    const { dispatcher, channel, sent } = setup({ sessions: [office([])], handler });
    await dispatcher.dispatch(request({ tool_name: 'update_task_pr_automation_kandev' }), channel);
    expect(order).toEqual(['precheck']);
    expect(sent).toEqual(refusal('failed_precondition', /^nobody to ask$/));
  });

  test('a request without call_id cannot be answered and is dropped', async () => {
    const { dispatcher, channel, sent, seen } = setup();
    await dispatcher.dispatch(request({ call_id: '' }), channel);
    expect([sent, seen]).toEqual([[], []]);
  });

  test('a handler AppError is its code and message; any other error is a generic internal one', async () => {
    const refusing = setup({
      handler: () => Promise.reject(new AppError('permission_denied', 'task t-2 is not your child')),
    });
    await refusing.dispatcher.dispatch(request(), refusing.channel);
    expect(refusing.sent).toEqual(refusal('permission_denied', 'task t-2 is not your child'));

    const crashing = setup({ handler: () => Promise.reject(new Error('SQLITE_BUSY at /secret/path')) });
    await crashing.dispatcher.dispatch(request(), crashing.channel);
    expect(crashing.sent).toEqual(refusal('internal', 'the backend failed to run get_task_kandev'));
  });

  test('heartbeats while the handler runs, reportProgress is relayed, nothing after the channel drops', async () => {
    jest.useFakeTimers();
    let finish: (reply: { text: string }) => void = () => undefined;
    let context: ToolCallContext | undefined;
    const { dispatcher, channel, sent, controller } = setup({
      heartbeatMs: 100,
      handler: (ctx) => {
        context = ctx;
        return new Promise((resolve) => (finish = resolve));
      },
    });
    const done = dispatcher.dispatch(request(), channel);
    await jest.advanceTimersByTimeAsync(0);
    context?.reportProgress('waiting for the operator');
    await jest.advanceTimersByTimeAsync(250);
    expect(sent).toEqual([
      { tool_progress: { call_id: 'call-1', message: 'waiting for the operator' } },
      { tool_progress: { call_id: 'call-1', message: 'the backend is still working on get_task_kandev' } },
      { tool_progress: { call_id: 'call-1', message: 'the backend is still working on get_task_kandev' } },
    ]);
    expect(context?.signal.aborted).toBe(false);
    controller.abort();
    expect(context?.signal.aborted).toBe(true);
    await jest.advanceTimersByTimeAsync(500);
    finish({ text: 'too late' });
    await done;
    expect(sent).toHaveLength(3);
    expect(jest.getTimerCount()).toBe(0);
  });
});
