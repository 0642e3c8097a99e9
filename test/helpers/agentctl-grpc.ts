import * as grpc from '@grpc/grpc-js';
import {
  type AgentCtlClient,
  controlTokenMetadata,
  loadAgentctlProto,
  type WireProviderUpdatesAnswerOutput,
  type WireProviderUpdateResultsOutput,
} from '@kandev/protocol';
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

const metadataFor = (token: string | null) => (token === null ? new grpc.Metadata() : controlTokenMetadata(token));

/** Promisified unary call with a deadline; `token: null` sends no authorization metadata. */
export function unary<Req, Res>(
  client: AgentCtlClient,
  method: Unary<Req, Res>,
  request: Req,
  token: string | null,
): Promise<Res> {
  return new Promise<Res>((resolve, reject) => {
    method.call(client, request, metadataFor(token), { deadline: Date.now() + 5_000 }, (error, response) => {
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

/** Everything a StreamProviderUpdates stream answered, and the status it ended with. */
export interface ProviderStreamEnd {
  answers: WireProviderUpdatesAnswerOutput[];
  status: grpc.StatusObject;
}

/**
 * Opens StreamProviderUpdates, sends the calls (as a backend, or grpcurl reading them from stdin, does),
 * half-closes, and collects every answer until the stream's status. A call may be anything the wire
 * carries (no batch, unknown provider numbers): agentctl must cope.
 */
export function exchangeProviderUpdates(
  client: AgentCtlClient,
  calls: readonly object[],
  token: string | null,
): Promise<ProviderStreamEnd> {
  return new Promise((resolve) => {
    const answers: WireProviderUpdatesAnswerOutput[] = [];
    const stream = client.StreamProviderUpdates(metadataFor(token), { deadline: Date.now() + 10_000 });
    stream.on('data', (answer: WireProviderUpdatesAnswerOutput) => answers.push(answer));
    stream.on('error', () => undefined); // the status event carries it
    stream.on('status', (status: grpc.StatusObject) => resolve({ answers, status }));
    for (const call of calls) stream.write(call);
    stream.end();
  });
}

/** One provider update as a test writes it: wire providers (names or numbers) and a decimal revision. */
export interface WireUpdate {
  session_id: string;
  providers: (string | number)[];
  revision: string;
}

/**
 * One batch on a StreamProviderUpdates stream of its own: one result per update, in order (each
 * `held`, or the update's refusal as `error`). A failed call or stream rejects with what it said.
 */
export async function pushProviders(
  client: AgentCtlClient,
  updates: readonly WireUpdate[],
  token: string | null,
): Promise<WireProviderUpdateResultsOutput['results']> {
  const { answers, status } = await exchangeProviderUpdates(
    client,
    [{ call_id: '1', batch: { updates: [...updates] } }],
    token,
  );
  const [answer] = answers;
  if (status.code !== grpc.status.OK || answer === undefined) {
    throw Object.assign(new Error(`StreamProviderUpdates ended ${grpc.status[status.code]}: ${status.details}`), {
      code: status.code,
      details: status.details,
    });
  }
  if (answer.batch == null) throw new Error(`StreamProviderUpdates call failed: ${JSON.stringify(answer.error)}`);
  return answer.batch.results;
}

/** One update, alone in its call: what agentctl holds after it, or its refusal. */
export async function pushProvider(
  client: AgentCtlClient,
  update: WireUpdate,
  token: string | null,
): Promise<WireProviderUpdateResultsOutput['results'][number]> {
  const [result] = await pushProviders(client, [update], token);
  if (result === undefined) throw new Error('StreamProviderUpdates answered no result');
  return result;
}
