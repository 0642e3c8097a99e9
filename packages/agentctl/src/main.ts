// Composition root: config -> logger -> Attach hub -> agent launcher + metrics + registry -> MCP listener ->
// metrics listener (when configured) -> gRPC listener (+ reflection) -> ready line -> signals.
import { isAppError, sha256Hex } from '@kandev/protocol';
import { createAgentLauncher } from './agents/agent-launcher';
import { AttachHub } from './attach/attach-hub';
import { createAttachHandler } from './attach/attach-stream';
import { type Config, loadConfig } from './config';
import { createAgentctlHandlers } from './grpc/agentctl-service';
import { ProviderUpdateStreams } from './grpc/provider-update-stream';
import { grpcTransport, startGrpcServer } from './grpc/grpc-server';
import { addGuardedReflection } from './grpc/reflection';
import { createUnaryAdapter } from './grpc/unary-adapter';
import { writeReadyLine } from './lifecycle/ready-line';
import { installShutdownHook } from './lifecycle/shutdown-hook';
import { ignoreBrokenPipes } from './lifecycle/stdio-guard';
import { createLogger, type Logger } from './logger';
import { ConnectionLimiter } from './mcp/connection-limits';
import { createMcpApp } from './mcp/mcp-app';
import { createAgentctlMetrics } from './metrics/agentctl-metrics';
import { startMetricsListener } from './metrics/metrics-listener';
import { startHttpListener } from './lifecycle/http-listener';
import { SessionRegistry } from './sessions/session-registry';
import { ToolSetCache } from './tools/tool-set-cache';

/** Exit code for bad configuration (distinct from a runtime failure, 1). */
const EXIT_BAD_CONFIG = 2;

function configOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    const message = isAppError(err) ? err.message : 'invalid configuration';
    process.stderr.write(`agentctl: ${message}\n`);
    process.exit(EXIT_BAD_CONFIG);
  }
}

async function start(config: Config, log: Logger): Promise<void> {
  const attachLog = log.child({ component: 'attach' });
  const metrics = createAgentctlMetrics();
  const hub = new AttachHub({
    metrics,
    timeoutMs: config.toolCallTimeoutMs,
    permissionTimeoutMs: config.permissionTimeoutMs,
    log: attachLog,
  });
  // Agents are launched only through CreateSession, i.e. once gRPC serves, after the MCP listener is up.
  const mcpListener: { port?: number } = {};
  const agents = createAgentLauncher({
    baseEnv: config.agentBaseEnv,
    defaultCwd: process.cwd(),
    mcpHost: config.host,
    mcpPort: () => {
      if (mcpListener.port === undefined) throw new Error('the MCP listener is not up yet');
      return mcpListener.port;
    },
    startTimeoutMs: config.agentStartTimeoutMs,
    stopGraceMs: config.agentStopGraceMs,
    mcpConnectTimeoutMs: config.mcpConnectTimeoutMs,
    toolsRefreshGraceMs: config.toolsRefreshGraceMs,
    publish: (sessionId, event) => hub.publish(sessionId, event),
    permissions: hub,
    log: log.child({ component: 'agents' }),
  });
  const registry = new SessionRegistry({
    toolSets: new ToolSetCache(),
    agents,
    log: log.child({ component: 'sessions' }),
    metrics,
  });
  // However agentctl ends (a forced shutdown, a fatal error), no agent process group outlives it.
  process.on('exit', () => registry.killAllAgents());
  // Ready once gRPC serves, until shutdown begins (GET /readyz on the MCP listener).
  let serving = false;
  // The gauge reads the limiter: every held connection slot, so it falls as idle or closed ones free theirs.
  const limiter = new ConnectionLimiter(config.mcpLimits);
  metrics.countConnections(() => limiter.held());
  metrics.countSessions(() => registry.census());
  const mcpApp = createMcpApp({
    registry,
    forwarder: hub,
    allowedHosts: config.allowedHosts,
    isReady: () => serving,
    log: log.child({ component: 'mcp' }),
    metrics,
    limiter,
    idleTimeoutMs: config.mcpLimits.idleTimeoutMs,
  });
  const mcp = await startHttpListener(mcpApp, config.host, config.mcpPort, config.httpTimeouts);
  mcpListener.port = mcp.port;
  // Off unless KANDEV_AGENTCTL_METRICS_ADDR names an address; bound before gRPC serves, so a bad one
  // fails the start.
  const address = config.metricsAddress;
  const metricsListener =
    address &&
    (await startMetricsListener(
      metrics.registry,
      { address, allowedHosts: config.allowedHosts, timeouts: config.httpTimeouts },
      log,
    ));
  const controlTokenHash = sha256Hex(config.controlToken);
  const unary = createUnaryAdapter({ controlTokenHash, log: log.child({ component: 'grpc' }) });
  const attach = createAttachHandler(hub, { controlTokenHash, log: attachLog });
  const providerUpdates = new ProviderUpdateStreams(registry, {
    controlTokenHash,
    log: log.child({ component: 'grpc' }),
    metrics,
  });
  const handlers = createAgentctlHandlers(registry, unary, {
    Attach: attach,
    StreamProviderUpdates: providerUpdates.handler,
  });
  const grpc = await startGrpcServer(config.host, config.grpcPort, handlers, config.tls, (server) =>
    addGuardedReflection(server, controlTokenHash),
  );
  grpc.setServing(true);
  serving = true;

  // Reverse start order: refuse new work first, then close what is open.
  installShutdownHook({
    steps: [
      {
        name: 'health-not-serving',
        run: () => {
          serving = false;
          grpc.setServing(false);
        },
      },
      { name: 'agents', run: () => registry.stopAllAgents() },
      { name: 'mcp-listener', run: () => mcp.close(() => registry.closeAllConnections()) },
      { name: 'attach-streams', run: () => hub.close() },
      { name: 'provider-update-streams', run: () => providerUpdates.close() },
      { name: 'grpc-server', run: () => grpc.shutdown() },
      { name: 'metrics-listener', run: () => metricsListener?.close() },
    ],
    timeoutMs: config.shutdownTimeoutMs,
    log,
    exit: (code) => process.exit(code),
  });
  const metricsPort = metricsListener?.port;
  const transport = grpcTransport(config.tls);
  writeReadyLine({ grpcPort: grpc.port, mcpPort: mcp.port, grpcTransport: transport, metricsPort });
  log.info(
    { host: config.host, grpcPort: grpc.port, mcpPort: mcp.port, grpcTransport: transport, metricsPort },
    'agentctl ready',
  );
}

function main(): void {
  ignoreBrokenPipes();
  const config = configOrExit();
  const log = createLogger(config.logLevel);
  process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled rejection'));
  start(config, log).catch((err: unknown) => {
    log.fatal({ err }, 'agentctl failed to start');
    process.exit(1);
  });
}

main();
