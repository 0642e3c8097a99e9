import * as grpc from '@grpc/grpc-js';
import { type AgentCtlClient, controlTokenMetadata, loadAgentctlProto } from '@kandev/protocol';
import type { Cleanup } from './cleanup';

/** A raw generated gRPC client, to call agentctl exactly as any backend would (or with a bad token). */
export function agentctlClient(cleanup: Cleanup, grpcPort: number): AgentCtlClient {
  const AgentCtl = loadAgentctlProto().kandev.agentctl.v1.AgentCtl;
  const client = new AgentCtl(`127.0.0.1:${grpcPort}`, grpc.credentials.createInsecure());
  cleanup.defer(() => client.close());
  return client;
}

type Unary<Req, Res> = (
  request: Req,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: grpc.requestCallback<Res>,
) => grpc.ClientUnaryCall;

/** Promisified unary call with a deadline; `token: null` sends no authorization metadata. */
export function unary<Req, Res>(
  client: AgentCtlClient,
  method: Unary<Req, Res>,
  request: Req,
  token: string | null,
): Promise<Res> {
  const metadata = token === null ? new grpc.Metadata() : controlTokenMetadata(token);
  return new Promise<Res>((resolve, reject) => {
    method.call(client, request, metadata, { deadline: Date.now() + 5_000 }, (error, response) => {
      if (error !== null) reject(error);
      else if (response === undefined) reject(new Error('empty response'));
      else resolve(response);
    });
  });
}

/** Resolves the gRPC status code a call fails with (or throws if it succeeds). */
export async function grpcFailureCode(call: Promise<unknown>): Promise<grpc.status> {
  try {
    await call;
  } catch (error) {
    return (error as grpc.ServiceError).code;
  }
  throw new Error('expected the call to fail');
}
