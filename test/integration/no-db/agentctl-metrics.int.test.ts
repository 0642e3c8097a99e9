// agentctl's operator surfaces against the real daemon: /metrics on KANDEV_AGENTCTL_METRICS_ADDR (off
// by default) and gRPC server reflection behind the control token.
import { once } from 'node:events';
import { connect } from 'node:net';
import { status } from '@grpc/grpc-js';
import {
  AGENTCTL_SERVICE_NAME,
  type LaunchConfig,
  launchConfigToWire,
  mcpPathFor,
  providerToWire,
  type WireSessionStateOutput,
} from '@kandev/protocol';
import { agentctlClient, pushProvider, unary } from '../../helpers/agentctl-grpc';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp, rawInitialize } from '../../helpers/mcp';
import { freePort, listServicesByReflection, parseMetrics, reflect, sampleValue } from '../../helpers/metrics';
import { startAgentctl, TEST_CONTROL_TOKEN } from '../../helpers/processes';
import { sessionUuid } from '../../helpers/session-ids';
import { closedByServer, IDLE_AFTER_REQUEST, INCOMPLETE_HEADERS } from '../../helpers/slow-client';
import { waitUntil } from '../../helpers/wait';
import { namedLaunchConfig } from '../../helpers/launch-configs';

const MCP_TOKEN = 'mcp-token-metrics-0123456789abcdef0123456789';

/** Sessions are named in the test; on the wire each name is a UUID. */
const config = (name: string): LaunchConfig => namedLaunchConfig(name, MCP_TOKEN);

/** Whether anything accepts a TCP connection on 127.0.0.1:port. */
async function accepts(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}

describe('agentctl metrics and reflection', () => {
  const cleanup = useCleanup();

  test('metrics are off by default: no port in the ready line, nothing listens on the address', async () => {
    const port = await freePort();
    const daemon = await startAgentctl(cleanup);
    expect(daemon.ready).not.toHaveProperty('metricsPort');
    expect(await accepts(port)).toBe(false);
    // The same port, configured: now it serves.
    const configured = await startAgentctl(cleanup, { KANDEV_AGENTCTL_METRICS_ADDR: `127.0.0.1:${port}` });
    expect(configured.ready).toMatchObject({ metricsPort: port });
    expect(await accepts(port)).toBe(true);
  });

  test('a bad KANDEV_AGENTCTL_METRICS_ADDR stops agentctl at start, naming the variable', async () => {
    await expect(startAgentctl(cleanup, { KANDEV_AGENTCTL_METRICS_ADDR: 'no-port-here' })).rejects.toThrow(
      /KANDEV_AGENTCTL_METRICS_ADDR: must be host:port/,
    );
  });

  test('/metrics counts MCP connections, tools/list, provider updates and list_changed', async () => {
    const daemon = await startAgentctl(cleanup, { KANDEV_AGENTCTL_METRICS_ADDR: '127.0.0.1:0' });
    const metricsPort = (daemon.ready as { metricsPort?: number }).metricsPort;
    expect(metricsPort).toEqual(expect.any(Number));
    const scrape = async () => {
      const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      return parseMetrics(await response.text());
    };
    const before = await scrape();
    expect(sampleValue(before, 'kandev_agentctl_mcp_connections')).toBe(0);
    expect(sampleValue(before, 'kandev_agentctl_tools_list_duration_seconds_count')).toBe(0);
    expect(sampleValue(before, 'process_cpu_user_seconds_total')).toEqual(expect.any(Number));
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);

    const grpc = agentctlClient(cleanup, daemon.ready.grpcPort);
    await unary<object, WireSessionStateOutput>(
      grpc,
      grpc.CreateSession,
      launchConfigToWire(config('m')),
      TEST_CONTROL_TOKEN,
    );
    const url = `http://127.0.0.1:${daemon.ready.mcpPort}${mcpPathFor(sessionUuid('m'))}`;
    const mcp = await connectMcp(cleanup, url, MCP_TOKEN);
    await waitUntil(() => mcp.notificationStreamOpen(), { timeoutMs: 5_000, logs: daemon.logs, what: 'SSE stream' });
    await mcp.toolNames();
    const update = { session_id: sessionUuid('m'), providers: [providerToWire('github')], revision: '2' };
    const pushed = await pushProvider(grpc, update, TEST_CONTROL_TOKEN);
    expect(pushed.held?.outcome).toBe('UPDATE_OUTCOME_APPLIED');
    await waitUntil(() => mcp.listChangedCount() === 1, { timeoutMs: 5_000, logs: daemon.logs, what: 'list_changed' });
    await pushProvider(grpc, update, TEST_CONTROL_TOKEN); // the same again: unchanged

    const after = await scrape();
    expect(sampleValue(after, 'kandev_agentctl_mcp_connections')).toBe(1);
    expect(sampleValue(after, 'kandev_agentctl_tools_list_duration_seconds_count')).toBe(1);
    expect(sampleValue(after, 'kandev_agentctl_list_changed_notifications_total')).toBe(1);
    expect(sampleValue(after, 'kandev_agentctl_update_providers_total', { outcome: 'applied' })).toBe(1);
    expect(sampleValue(after, 'kandev_agentctl_update_providers_total', { outcome: 'unchanged' })).toBe(1);
    const applied = { outcome: 'applied' };
    expect(sampleValue(after, 'kandev_agentctl_update_providers_duration_seconds_count', applied)).toBe(1);
  });

  test('the connection gauge follows the caps: a 429 is counted, an idle close brings it back to 0', async () => {
    const daemon = await startAgentctl(cleanup, {
      KANDEV_AGENTCTL_METRICS_ADDR: '127.0.0.1:0',
      KANDEV_MCP_MAX_CONNECTIONS_PER_SESSION: '1',
      KANDEV_MCP_IDLE_TIMEOUT_MS: '1000',
    });
    const metricsPort = (daemon.ready as { metricsPort?: number }).metricsPort;
    const scrape = async () => parseMetrics(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text());
    const grpc = agentctlClient(cleanup, daemon.ready.grpcPort);
    await unary(grpc, grpc.CreateSession, launchConfigToWire(config('c')), TEST_CONTROL_TOKEN);
    const url = `http://127.0.0.1:${daemon.ready.mcpPort}${mcpPathFor(sessionUuid('c'))}`;
    const auth = { authorization: `Bearer ${MCP_TOKEN}` };
    expect((await rawInitialize(url, auth)).status).toBe(200);
    expect((await rawInitialize(url, auth)).status).toBe(429);
    const capped = await scrape();
    expect(sampleValue(capped, 'kandev_agentctl_mcp_connections')).toBe(1);
    expect(sampleValue(capped, 'kandev_agentctl_mcp_connections_refused_total')).toBe(1);
    // The abandoned connection has no stream and no request: the idle timeout closes it and frees its slot.
    await waitUntil(async () => sampleValue(await scrape(), 'kandev_agentctl_mcp_connections') === 0, {
      timeoutMs: 10_000,
      logs: daemon.logs,
      what: 'the idle connection to close',
    });
    expect((await rawInitialize(url, auth)).status).toBe(200);
  });

  test('reflection lists the AgentCtl service with the control token, and is UNAUTHENTICATED without', async () => {
    const daemon = await startAgentctl(cleanup);
    const port = daemon.ready.grpcPort;
    expect(await listServicesByReflection(cleanup, port, TEST_CONTROL_TOKEN)).toEqual([AGENTCTL_SERVICE_NAME]);
    // What `grpcurl describe` and calls by name ask next: the file declaring the service.
    const file = await reflect(cleanup, port, TEST_CONTROL_TOKEN, { file_containing_symbol: AGENTCTL_SERVICE_NAME });
    const descriptors = file.file_descriptor_response?.file_descriptor_proto ?? [];
    expect(descriptors.length).toBeGreaterThan(0);
    expect(Buffer.concat(descriptors).toString('latin1')).toContain('StreamProviderUpdates');
    await expect(listServicesByReflection(cleanup, port, null)).rejects.toMatchObject({ code: status.UNAUTHENTICATED });
    const wrong = 'wrong-control-token-0123456789abcdef0123456789';
    await expect(listServicesByReflection(cleanup, port, wrong)).rejects.toMatchObject({
      code: status.UNAUTHENTICATED,
    });
  });

  test('the metrics listener refuses a foreign Host and accepts a listed one', async () => {
    const daemon = await startAgentctl(cleanup, {
      KANDEV_AGENTCTL_METRICS_ADDR: '127.0.0.1:0',
      KANDEV_AGENTCTL_ALLOWED_HOSTS: 'scrape.internal',
    });
    const port = (daemon.ready as { metricsPort?: number }).metricsPort;
    // A rebinding page's request reaches 127.0.0.1 with its own name in Host: raw, so Host is ours to set.
    const answer = (host: string) =>
      closedByServer(port ?? 0, [`GET /metrics HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`]);
    expect((await answer('evil.example:80')).received).toMatch(/^HTTP\/1\.1 403/);
    expect((await answer('scrape.internal:9464')).received).toMatch(/^HTTP\/1\.1 200/);
    expect((await answer(`127.0.0.1:${port}`)).received).toMatch(/^HTTP\/1\.1 200/);
  });

  test('the metrics listener closes a stalled header and an idle socket within its HTTP timeouts', async () => {
    // Short timeouts (the defaults are a minute): the socket's 'close' event is the barrier.
    const daemon = await startAgentctl(cleanup, {
      KANDEV_AGENTCTL_METRICS_ADDR: '127.0.0.1:0',
      KANDEV_HTTP_HEADERS_TIMEOUT_MS: '300',
      KANDEV_HTTP_REQUEST_TIMEOUT_MS: '600',
      KANDEV_HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
    });
    const port = (daemon.ready as { metricsPort?: number }).metricsPort ?? 0;
    const [headers, idle] = await Promise.all([
      closedByServer(port, INCOMPLETE_HEADERS('/metrics')),
      closedByServer(port, IDLE_AFTER_REQUEST('/metrics')),
    ]);
    expect(headers.received).toMatch(/^(HTTP\/1\.1 408|$)/);
    expect(idle.received).toMatch(/^HTTP\/1\.1 200/);
  });
});
