// Against the real daemon: revisions only move forward, so no late or replayed provider update
// (StreamProviderUpdates) can regress a session's tool list.
import {
  type LaunchConfig,
  launchConfigToWire,
  mcpPathFor,
  type Provider,
  providerToWire,
  type WireSessionStateOutput,
} from '@kandev/protocol';
import fc from 'fast-check';
import { agentctlClient, pushProvider, unary } from '../../helpers/agentctl-grpc';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp, finalListChangedCount } from '../../helpers/mcp';
import { startAgentctl, TEST_CONTROL_TOKEN } from '../../helpers/processes';
import { MR_PAIR, PR_PAIR } from '../../helpers/tool-names';
import { waitUntil } from '../../helpers/wait';
import { sessionUuid } from '../../helpers/session-ids';
import { namedLaunchConfig } from '../../helpers/launch-configs';

const MCP_TOKEN = 'mcp-token-revisions-0123456789abcdef0123456789';
const PROVIDER_TOOLS: Record<Provider, string[]> = { github: PR_PAIR, gitlab: MR_PAIR };
const providerToolsIn = (names: string[]) =>
  names.filter((name) => Object.values(PROVIDER_TOOLS).some((tools) => tools.includes(name))).sort();
const toolsOf = (providers: readonly Provider[]) => providers.flatMap((p) => PROVIDER_TOOLS[p]).sort();

/** Sessions are named in the test; on the wire each name is a UUID. */
const config = (name: string): LaunchConfig => namedLaunchConfig(name, MCP_TOKEN);

describe('agentctl revisions', () => {
  const cleanup = useCleanup();

  async function setup() {
    const daemon = await startAgentctl(cleanup);
    const grpc = agentctlClient(cleanup, daemon.ready.grpcPort);
    const create = (sessionId: string) =>
      unary<object, WireSessionStateOutput>(
        grpc,
        grpc.CreateSession,
        launchConfigToWire(config(sessionId)),
        TEST_CONTROL_TOKEN,
      );
    /** What agentctl holds after the push (every push here names a live session, so none is refused). */
    const push = async (sessionId: string, providers: readonly Provider[], revision: number) => {
      const update = {
        session_id: sessionUuid(sessionId),
        providers: providers.map(providerToWire),
        revision: String(revision),
      };
      const result = await pushProvider(grpc, update, TEST_CONTROL_TOKEN);
      if (result.held === null || result.held === undefined) throw new Error(`refused: ${result.error?.message}`);
      return result.held;
    };
    const stop = (sessionId: string) =>
      unary<object, { stopped: boolean }>(
        grpc,
        grpc.StopSession,
        { session_id: sessionUuid(sessionId) },
        TEST_CONTROL_TOKEN,
      );
    const url = (sessionId: string) => `http://127.0.0.1:${daemon.ready.mcpPort}${mcpPathFor(sessionUuid(sessionId))}`;
    return { daemon, create, push, stop, url };
  }

  test('pushes with revisions 5, 7, 6 leave the session at revision 7 and its set', async () => {
    const { daemon, create, push, stop, url } = await setup();
    await create('s');
    const mcp = await connectMcp(cleanup, url('s'), MCP_TOKEN);
    await waitUntil(() => mcp.notificationStreamOpen(), { timeoutMs: 5_000, logs: daemon.logs, what: 'SSE stream' });

    expect((await push('s', ['github'], 5)).outcome).toBe('UPDATE_OUTCOME_APPLIED');
    expect((await push('s', ['gitlab'], 7)).outcome).toBe('UPDATE_OUTCOME_APPLIED');
    const late = await push('s', ['github', 'gitlab'], 6);
    expect(late).toMatchObject({
      outcome: 'UPDATE_OUTCOME_STALE',
      tools_changed: false,
      revision: '7',
      providers: ['PROVIDER_GITLAB'],
    });
    // Sent again, the last applied push is an idempotent success that changes nothing.
    expect(await push('s', ['gitlab'], 7)).toMatchObject({ outcome: 'UPDATE_OUTCOME_UNCHANGED', tools_changed: false });

    expect(providerToolsIn(await mcp.toolNames())).toEqual(PROVIDER_TOOLS.gitlab);
    await waitUntil(() => mcp.listChangedCount() === 2, {
      timeoutMs: 5_000,
      logs: daemon.logs,
      what: '2 list_changed',
    });
    // Stopping the session ends the notification stream after every notification: the late push sent none.
    expect(await stop('s')).toEqual({ stopped: true });
    expect(await finalListChangedCount(mcp, daemon.logs)).toBe(2);
  });

  test('property: after any sequence of pushes the session holds the highest revision seen and its set', async () => {
    const { create, push, url } = await setup();
    const pushArb = fc.record({
      revision: fc.integer({ min: 2, max: 40 }),
      providers: fc.subarray<Provider>(['github', 'gitlab']),
    });
    // Distinct revisions: one revision with two contents is a contract violation, tested elsewhere.
    const sequenceArb = fc.uniqueArray(pushArb, { minLength: 1, maxLength: 6, selector: (p) => p.revision });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(sequenceArb, async (pushes) => {
        const sessionId = `prop-${run++}`;
        await create(sessionId);
        const mcp = await connectMcp(cleanup, url(sessionId), MCP_TOKEN);
        let highest = { revision: 1, providers: [] as Provider[] };
        for (const next of pushes) {
          const held = await push(sessionId, next.providers, next.revision);
          const outcome = next.revision > highest.revision ? 'UPDATE_OUTCOME_APPLIED' : 'UPDATE_OUTCOME_STALE';
          if (next.revision > highest.revision) highest = next;
          expect(held).toMatchObject({ outcome, revision: String(highest.revision) });
          expect(providerToolsIn(await mcp.toolNames())).toEqual(toolsOf(highest.providers));
        }
      }),
      { numRuns: 25 },
    );
  });
});
