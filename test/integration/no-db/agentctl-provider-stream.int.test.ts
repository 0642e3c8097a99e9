// StreamProviderUpdates against the real agentctl daemon: batches of provider updates on one long-lived
// stream, each call answered once by its call_id, as grpcurl or a backend sends them.
import * as grpc from '@grpc/grpc-js';
import {
  controlTokenMetadata,
  launchConfigToWire,
  type LaunchConfig,
  mcpPathFor,
  type WireProviderUpdatesAnswerOutput,
  type WireSessionStateOutput,
} from '@kandev/protocol';
import { agentctlClient, exchangeProviderUpdates, unary } from '../../helpers/agentctl-grpc';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp } from '../../helpers/mcp';
import { startAgentctl, stopProcess, TEST_CONTROL_TOKEN } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';
import { namedLaunchConfig } from '../../helpers/launch-configs';
import { sessionUuid } from '../../helpers/session-ids';
import { MR_PAIR } from '../../helpers/tool-names';

type WireProvider = 'PROVIDER_GITHUB' | 'PROVIDER_GITLAB';
const TOKEN = 'mcp-token-stream-session-0123456789abcdef0123456789';
const GITLAB: WireProvider[] = ['PROVIDER_GITHUB', 'PROVIDER_GITLAB'];

describe('StreamProviderUpdates', () => {
  const cleanup = useCleanup();

  async function setup() {
    const daemon = await startAgentctl(cleanup);
    const client = agentctlClient(cleanup, daemon.ready.grpcPort);
    const config: LaunchConfig = namedLaunchConfig('streamed', TOKEN, { providers: ['github'] });
    await unary(client, client.CreateSession, launchConfigToWire(config), TEST_CONTROL_TOKEN);
    const getSession = () =>
      unary<object, WireSessionStateOutput>(
        client,
        client.GetSession,
        { session_id: sessionUuid('streamed') },
        TEST_CONTROL_TOKEN,
      );
    const exchange = (calls: object[], token: string | null) => exchangeProviderUpdates(client, calls, token);
    const url = `http://127.0.0.1:${daemon.ready.mcpPort}${mcpPathFor(sessionUuid('streamed'))}`;
    return { daemon, getSession, exchange, url };
  }

  const update = (providers: WireProvider[], revision: string, sessionId = sessionUuid('streamed')) => ({
    updates: [{ session_id: sessionId, providers, revision }],
  });

  test('calls apply in order, each answered once with its call_id; a refusal is its own answer', async () => {
    const { daemon, getSession, exchange, url } = await setup();
    const mcp = await connectMcp(cleanup, url, TOKEN);
    await waitUntil(() => mcp.notificationStreamOpen(), { timeoutMs: 5_000, logs: daemon.logs, what: 'SSE stream' });

    const { answers, status } = await exchange(
      [
        { call_id: '7', batch: update(GITLAB, '2') },
        { call_id: '8', batch: update(GITLAB, '2', sessionUuid('missing')) },
        { call_id: '9' }, // no batch
        { call_id: '18446744073709551615', batch: update(['PROVIDER_GITHUB'], '3') },
      ],
      TEST_CONTROL_TOKEN,
    );

    expect(status.code).toBe(grpc.status.OK);
    expect(answers.map((answer) => [answer.call_id, answer.answer])).toEqual([
      ['7', 'batch'],
      ['8', 'batch'],
      ['9', 'error'],
      ['18446744073709551615', 'batch'],
    ]);
    expect(answers[0]?.batch?.results[0]?.held).toMatchObject({
      revision: '2',
      providers: GITLAB,
      tools_changed: true,
    });
    expect(answers[1]?.batch?.results[0]?.error?.code).toBe('not_found');
    expect(answers[2]?.error).toEqual({ code: 'invalid_argument', message: 'a call without a batch' });
    expect(answers[3]?.batch?.results[0]?.held).toMatchObject({ revision: '3', tools_changed: true });
    expect((await getSession()).config).toMatchObject({ revision: '3', providers: ['PROVIDER_GITHUB'] });
    await waitUntil(() => mcp.listChangedCount() >= 2, { timeoutMs: 5_000, logs: daemon.logs, what: 'list_changed' });
    // A later request as the barrier: it shows revision 3's tools, and no third list_changed came.
    expect((await mcp.toolNames()).filter((name) => MR_PAIR.includes(name))).toEqual([]);
    expect(mcp.listChangedCount()).toBe(2);
  });

  test('without the control token: UNAUTHENTICATED, nothing answered, nothing applied', async () => {
    const { getSession, exchange } = await setup();
    for (const token of [null, 'not-the-control-token-0123456789abcdef']) {
      const { answers, status } = await exchange([{ call_id: '1', batch: update(GITLAB, '2') }], token);
      expect({ code: status.code, details: status.details, answers }).toEqual({
        code: grpc.status.UNAUTHENTICATED,
        details: 'missing or invalid control token',
        answers: [],
      });
    }
    expect((await getSession()).config).toMatchObject({ revision: '1', providers: ['PROVIDER_GITHUB'] });
  });

  test('SIGTERM with a stream open: the stream ends UNAVAILABLE, agentctl exits 0 without waiting on it', async () => {
    const { daemon } = await setup();
    const client = agentctlClient(cleanup, daemon.ready.grpcPort);
    const stream = client.StreamProviderUpdates(controlTokenMetadata(TEST_CONTROL_TOKEN));
    const answered = new Promise<WireProviderUpdatesAnswerOutput>((resolve) => stream.once('data', resolve));
    const ended = new Promise<grpc.StatusObject>((resolve) => stream.on('status', resolve));
    stream.on('error', () => undefined);
    stream.write({ call_id: '1', batch: update(GITLAB, '2') });
    expect((await answered).call_id).toBe('1'); // open and in use
    // The grace is far below agentctl's shutdown timeout: a server waiting for the stream would miss it.
    expect(await stopProcess(daemon.child, { graceMs: 5_000, signal: 'SIGTERM' })).toEqual({ code: 0, signal: null });
    expect(await ended).toMatchObject({ code: grpc.status.UNAVAILABLE, details: 'agentctl is shutting down' });
  });
});
