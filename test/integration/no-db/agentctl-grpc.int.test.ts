// agentctl's gRPC control surface, against the real built daemon: authentication, validation at the
// edge (nothing registered on bad input), idempotent CreateSession and the provider update outcomes.
import { status } from '@grpc/grpc-js';
import {
  AGENTCTL_SERVICE_NAME,
  type AgentCtlClient,
  checkHealth,
  type LaunchConfig,
  launchConfigToWire,
  type WireSessionStateOutput,
} from '@kandev/protocol';
import { agentctlClient, grpcFailureCode, pushProvider, unary } from '../../helpers/agentctl-grpc';
import { useCleanup } from '../../helpers/cleanup';
import { namedLaunchConfig } from '../../helpers/launch-configs';
import { startAgentctl, TEST_CONTROL_TOKEN } from '../../helpers/processes';
import { sessionUuid } from '../../helpers/session-ids';

type SessionState = WireSessionStateOutput;
interface SessionList {
  sessions: WireSessionStateOutput[];
}
interface Stopped {
  stopped: boolean;
}

const MCP_TOKEN = 'grpc-test-mcp-token-0123456789abcdef0123456789';
const SESSION_ID = sessionUuid('grpc');

/** The one session these tests register (id SESSION_ID). */
const config = (overrides: Partial<LaunchConfig> = {}) =>
  namedLaunchConfig('grpc', MCP_TOKEN, { taskId: 'task-grpc', ...overrides });

describe('agentctl gRPC', () => {
  const cleanup = useCleanup();

  async function start(): Promise<AgentCtlClient> {
    const daemon = await startAgentctl(cleanup);
    return agentctlClient(cleanup, daemon.ready.grpcPort);
  }
  const create = (client: AgentCtlClient, wire: object, token: string | null = TEST_CONTROL_TOKEN) =>
    unary<object, SessionState>(client, client.CreateSession, wire, token);
  const list = async (client: AgentCtlClient) =>
    (await unary<object, SessionList>(client, client.ListSessions, {}, TEST_CONTROL_TOKEN)).sessions.map(
      (s) => s.config?.session_id,
    );

  test('every AgentCtl call needs the control token; health answers without one', async () => {
    const daemon = await startAgentctl(cleanup);
    const client = agentctlClient(cleanup, daemon.ready.grpcPort);
    for (const token of [null, 'wrong-control-token-0123456789abcdef0123456789']) {
      expect(await grpcFailureCode(unary<object, SessionList>(client, client.ListSessions, {}, token))).toBe(
        status.UNAUTHENTICATED,
      );
      expect(await grpcFailureCode(create(client, launchConfigToWire(config()), token))).toBe(status.UNAUTHENTICATED);
      expect(
        await grpcFailureCode(unary<object, Stopped>(client, client.StopSession, { session_id: 'x' }, token)),
      ).toBe(status.UNAUTHENTICATED);
    }
    expect(await list(client)).toEqual([]);
    const address = `127.0.0.1:${daemon.ready.grpcPort}`;
    expect(await checkHealth(address, '', { timeoutMs: 2_000 })).toBe('SERVING');
    expect(await checkHealth(address, AGENTCTL_SERVICE_NAME, { timeoutMs: 2_000 })).toBe('SERVING');
  });

  test('UNSPECIFIED capability or surface, bad ids, short token, bad revision: INVALID_ARGUMENT, nothing created', async () => {
    const client = await start();
    const valid = launchConfigToWire(config());
    const bad: Record<string, object> = {
      capability: { ...valid, question_capability: 'QUESTION_CAPABILITY_UNSPECIFIED' },
      surface: { ...valid, surface: 'SURFACE_UNSPECIFIED' },
      sessionId: { ...valid, session_id: '' },
      pathSessionId: { ...valid, session_id: '../../x' },
      hugeSessionId: { ...valid, session_id: 'a'.repeat(10_000) },
      notUuidSessionId: { ...valid, session_id: 'sess-grpc' },
      taskId: { ...valid, task_id: '' },
      token: { ...valid, mcp_token: 'too-short' },
      revision: { ...valid, revision: '0' },
    };
    for (const [what, wire] of Object.entries(bad)) {
      expect({ what, code: await grpcFailureCode(create(client, wire)) }).toEqual({
        what,
        code: status.INVALID_ARGUMENT,
      });
    }
    // The refusal names the rule and never echoes the id it refused.
    await expect(create(client, { ...valid, session_id: '../../x' })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: 'session_id must be a UUID',
    });
    expect(await list(client)).toEqual([]);
  });

  test('unknown provider numbers are ignored; the token is never echoed', async () => {
    const client = await start();
    const wire = { ...launchConfigToWire(config()), providers: [42, 'PROVIDER_GITLAB'] };
    const state = await create(client, wire);
    expect(state.config?.providers).toEqual(['PROVIDER_GITLAB']);
    expect(state.config?.mcp_token).toBe('');
    expect(state.tool_names).toEqual(expect.arrayContaining(['get_task_mr_automation_kandev']));
    expect(state.tool_names).not.toContain('get_task_pr_automation_kandev');
    expect(state.mcp_path).toBe(`/sessions/${SESSION_ID}/mcp`);
  });

  test('CreateSession is idempotent for the same revision and content, and refuses a conflicting one', async () => {
    const client = await start();
    const first = await create(client, launchConfigToWire(config()));
    expect(await create(client, launchConfigToWire(config()))).toEqual(first);
    const conflicting = launchConfigToWire(config({ providers: ['github'] }));
    expect(await grpcFailureCode(create(client, conflicting))).toBe(status.FAILED_PRECONDITION);
    const otherToken = launchConfigToWire(config({ mcpToken: `${MCP_TOKEN}-other` }));
    expect(await grpcFailureCode(create(client, otherToken))).toBe(status.FAILED_PRECONDITION);
    expect(
      await unary<object, SessionState>(client, client.GetSession, { session_id: SESSION_ID }, TEST_CONTROL_TOKEN),
    ).toEqual(first);
    expect(await list(client)).toEqual([SESSION_ID]);
  });

  test('StreamProviderUpdates: applied, unchanged, conflicting, stale, unknown session', async () => {
    const client = await start();
    await create(client, launchConfigToWire(config({ revision: 3 })));
    const update = (providers: (string | number)[], revision: string, sessionId = SESSION_ID) =>
      pushProvider(client, { session_id: sessionId, providers, revision }, TEST_CONTROL_TOKEN);
    const held = async () =>
      (await unary<object, SessionState>(client, client.GetSession, { session_id: SESSION_ID }, TEST_CONTROL_TOKEN))
        .config;

    const applied = await update(['PROVIDER_GITHUB', 99], '4'); // an unknown provider number is dropped
    expect(applied.held).toMatchObject({
      outcome: 'UPDATE_OUTCOME_APPLIED',
      tools_changed: true,
      providers: ['PROVIDER_GITHUB'],
      revision: '4',
    });
    expect(await held()).toMatchObject({
      providers: ['PROVIDER_GITHUB'],
      revision: '4',
      question_capability: 'QUESTION_CAPABILITY_USER',
    });

    expect((await update(['PROVIDER_GITHUB'], '4')).held).toMatchObject({
      outcome: 'UPDATE_OUTCOME_UNCHANGED',
      tools_changed: false,
    });
    expect((await update(['PROVIDER_GITLAB'], '4')).error?.code).toBe('failed_precondition');
    const stale = await update([], '2');
    expect(stale.held).toMatchObject({
      outcome: 'UPDATE_OUTCOME_STALE',
      tools_changed: false,
      providers: ['PROVIDER_GITHUB'],
      revision: '4',
    });
    expect((await update([], '9', 'no-such-session')).error?.code).toBe('not_found');
    expect(await held()).toMatchObject({ providers: ['PROVIDER_GITHUB'], revision: '4' });
  });

  test('StopSession removes the session and is idempotent; GetSession then NOT_FOUND', async () => {
    const client = await start();
    await create(client, launchConfigToWire(config()));
    const stop = () =>
      unary<object, Stopped>(client, client.StopSession, { session_id: SESSION_ID }, TEST_CONTROL_TOKEN);
    expect(await stop()).toEqual({ stopped: true });
    expect(await stop()).toEqual({ stopped: false });
    expect(
      await grpcFailureCode(
        unary<object, SessionState>(client, client.GetSession, { session_id: SESSION_ID }, TEST_CONTROL_TOKEN),
      ),
    ).toBe(status.NOT_FOUND);
    expect(await list(client)).toEqual([]);
  });
});
