import { Server, ServerCredentials } from '@grpc/grpc-js';
import { AGENTCTL_SERVICE_NAME, type AgentCtlHandlers, agentctlServerDefinition } from '@kandev/protocol';
import { HealthImplementation } from 'grpc-health-check';
import type { ServerTls } from '../config';

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

/** What the listener speaks: plaintext, TLS, or mutual TLS (client certificates required). */
export type GrpcTransport = 'plaintext' | 'tls' | 'mtls';

export function grpcTransport(tls: ServerTls | undefined): GrpcTransport {
  if (tls === undefined) return 'plaintext';
  return tls.clientCa === undefined ? 'tls' : 'mtls';
}

function serverCredentials(tls: ServerTls | undefined): ServerCredentials {
  if (tls === undefined) return ServerCredentials.createInsecure();
  const clientCa = tls.clientCa === undefined ? null : Buffer.from(tls.clientCa);
  // checkClientCertificate: with a client CA, a client without a certificate it signed fails the handshake.
  return ServerCredentials.createSsl(
    clientCa,
    [{ cert_chain: Buffer.from(tls.cert), private_key: Buffer.from(tls.key) }],
    clientCa !== null,
  );
}

/**
 * The gRPC listener: the AgentCtl service (every call authenticated by the adapter) plus the standard
 * health service, which stays unauthenticated for liveness probes and starts NOT_SERVING.
 */
export async function startGrpcServer(
  host: string,
  port: number,
  handlers: AgentCtlHandlers,
  tls: ServerTls | undefined,
  addServices: (server: Server) => void = () => {}, // e.g. the guarded reflection service
): Promise<GrpcListener> {
  const server = new Server();
  server.addService(agentctlServerDefinition(), handlers);
  addServices(server);
  const health = new HealthImplementation({ '': 'NOT_SERVING', [AGENTCTL_SERVICE_NAME]: 'NOT_SERVING' });
  health.addToServer(server);
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(grpcAddress(host, port), serverCredentials(tls), (err, actual) =>
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
