// Prometheus text exposition as the tests read it, and a gRPC reflection client built from the
// reflection proto shipped in @grpc/reflection (no AgentCtl proto involved).
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { Cleanup } from './cleanup';

/** One sample per line: `name{a="x",b="y"} value` (HELP/TYPE comments skipped). */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]!] = pair[2]!;
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample with this name whose labels include `labels`; undefined when absent. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;
}

export interface ReflectionRequest {
  list_services?: string;
  file_containing_symbol?: string;
}

export interface ReflectionResponse {
  list_services_response?: { service: { name: string }[] };
  file_descriptor_response?: { file_descriptor_proto: Buffer[] };
  error_response?: { error_code: number; error_message: string };
}

type ReflectionStream = grpc.ClientDuplexStream<ReflectionRequest, ReflectionResponse>;
type ReflectionClient = grpc.Client & { ServerReflectionInfo(metadata: grpc.Metadata): ReflectionStream };

/** One ServerReflectionInfo stream, one request, its first response (what grpcurl does per step). */
export async function reflect(
  cleanup: Cleanup,
  grpcPort: number,
  token: string | null,
  request: ReflectionRequest,
): Promise<ReflectionResponse> {
  const protoDir = join(dirname(require.resolve('@grpc/reflection/package.json')), 'build', 'proto');
  const definition = protoLoader.loadSync('grpc/reflection/v1/reflection.proto', {
    keepCase: true,
    includeDirs: [protoDir],
  });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    grpc: {
      reflection: {
        v1: { ServerReflection: new (address: string, creds: grpc.ChannelCredentials) => ReflectionClient };
      };
    };
  };
  const client = new loaded.grpc.reflection.v1.ServerReflection(
    `127.0.0.1:${grpcPort}`,
    grpc.credentials.createInsecure(),
  );
  cleanup.defer(() => client.close());
  const metadata = new grpc.Metadata();
  if (token !== null) metadata.set('authorization', `Bearer ${token}`);
  const stream = client.ServerReflectionInfo(metadata);
  return new Promise<ReflectionResponse>((resolve, reject) => {
    stream.on('data', (response: ReflectionResponse) => {
      stream.end();
      resolve(response);
    });
    stream.on('error', reject);
    stream.write(request);
  });
}

/** `grpcurl list`: the service names reflection reports. */
export async function listServicesByReflection(
  cleanup: Cleanup,
  grpcPort: number,
  token: string | null,
): Promise<string[]> {
  const response = await reflect(cleanup, grpcPort, token, { list_services: '*' });
  const services = response.list_services_response?.service;
  if (services === undefined) throw new Error(`unexpected reflection response ${JSON.stringify(response)}`);
  return services.map((service) => service.name).sort();
}

/** A port that was free a moment ago (bound and released). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
