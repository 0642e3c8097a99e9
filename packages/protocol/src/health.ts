import * as grpc from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';

export type ServingStatus = 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';

interface HealthCheckClient extends grpc.Client {
  check(
    request: { service: string },
    options: grpc.CallOptions,
    callback: (error: grpc.ServiceError | null, response?: { status: ServingStatus }) => void,
  ): grpc.ClientUnaryCall;
}

const HealthClient = grpc.makeGenericClientConstructor(healthService, 'Health') as unknown as new (
  address: string,
  credentials: grpc.ChannelCredentials,
) => HealthCheckClient;

/**
 * One standard `grpc.health.v1.Health/Check`. Resolves the status, or `undefined` when the server
 * cannot be reached before the deadline.
 */
export async function checkHealth(
  address: string,
  service: string,
  options: { timeoutMs: number; credentials?: grpc.ChannelCredentials },
): Promise<ServingStatus | undefined> {
  const client = new HealthClient(address, options.credentials ?? grpc.credentials.createInsecure());
  try {
    return await new Promise<ServingStatus | undefined>((resolve) => {
      client.check({ service }, { deadline: Date.now() + options.timeoutMs }, (error, response) => {
        resolve(error === null ? response?.status : undefined);
      });
    });
  } finally {
    client.close();
  }
}
