import type * as grpc from '@grpc/grpc-js';
import { makeGenericClientConstructor } from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';
import { type AgentctlTls, agentctlChannel } from './channel-credentials';

export type ServingStatus = 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';

interface HealthCheckClient extends grpc.Client {
  check(
    request: { service: string },
    options: grpc.CallOptions,
    callback: (error: grpc.ServiceError | null, response?: { status: ServingStatus }) => void,
  ): grpc.ClientUnaryCall;
}

const HealthClient = makeGenericClientConstructor(healthService, 'Health') as unknown as new (
  address: string,
  credentials: grpc.ChannelCredentials,
  options: grpc.ChannelOptions,
) => HealthCheckClient;

export interface HealthCheckOptions {
  timeoutMs: number;
  /** The agentctl serves TLS: verify it with these (plaintext when undefined). */
  tls?: AgentctlTls;
}

/** A health answer, or why there was none (the gRPC error's details, e.g. a TLS verification failure). */
export type HealthProbe = { status: ServingStatus } | { error: string };

/** One standard `grpc.health.v1.Health/Check`, keeping the error when the server gave no answer. */
export async function probeHealth(address: string, service: string, options: HealthCheckOptions): Promise<HealthProbe> {
  const channel = agentctlChannel(address, options.tls);
  const client = new HealthClient(address, channel.credentials, channel.options);
  try {
    return await new Promise<HealthProbe>((resolve) => {
      client.check({ service }, { deadline: Date.now() + options.timeoutMs }, (error, response) => {
        if (error !== null) resolve({ error: error.details || error.message });
        else resolve(response === undefined ? { error: 'empty response' } : { status: response.status });
      });
    });
  } finally {
    client.close();
  }
}

/**
 * One standard `grpc.health.v1.Health/Check`. Resolves the status, or `undefined` when the server
 * cannot be reached before the deadline.
 */
export async function checkHealth(
  address: string,
  service: string,
  options: HealthCheckOptions,
): Promise<ServingStatus | undefined> {
  const probe = await probeHealth(address, service, options);
  return 'status' in probe ? probe.status : undefined;
}
