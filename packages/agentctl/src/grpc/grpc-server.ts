import { Server, ServerCredentials } from '@grpc/grpc-js';
import { AGENTCTL_SERVICE_NAME, type AgentCtlHandlers, agentctlServerDefinition } from '@kandev/protocol';
import { HealthImplementation } from 'grpc-health-check';

export interface GrpcListener {
  readonly port: number;
  /** Flips the standard health service ('' and the AgentCtl service). */
  setServing(serving: boolean): void;
  /** Graceful: stop accepting, let in-flight calls finish. */
  shutdown(): Promise<void>;
}

/** `host:port` for grpc-js, bracketing IPv6 literals. */
export function grpcAddress(host: string, port: number): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * The gRPC listener: the AgentCtl service (every call authenticated by the adapter) plus the standard
 * health service, which stays unauthenticated for liveness probes and starts NOT_SERVING.
 */
export async function startGrpcServer(
  host: string,
  port: number,
  handlers: AgentCtlHandlers,
  addServices: (server: Server) => void = () => {}, // e.g. the guarded reflection service
): Promise<GrpcListener> {
  const server = new Server();
  server.addService(agentctlServerDefinition(), handlers);
  addServices(server);
  const health = new HealthImplementation({ '': 'NOT_SERVING', [AGENTCTL_SERVICE_NAME]: 'NOT_SERVING' });
  health.addToServer(server);
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(grpcAddress(host, port), ServerCredentials.createInsecure(), (err, actual) =>
      err ? reject(err) : resolve(actual),
    ),
  );
  return {
    port: bound,
    setServing(serving) {
      const status = serving ? 'SERVING' : 'NOT_SERVING';
      health.setStatus('', status);
      health.setStatus(AGENTCTL_SERVICE_NAME, status);
    },
    shutdown: () =>
      new Promise<void>((resolve, reject) => server.tryShutdown((err) => (err ? reject(err) : resolve()))),
  };
}
