// A stream agentctl ends because a newer Attach replaced it (FAILED_PRECONDITION): an Attach client told
// to leave that to its owner (several replicas: the Attach lease decides) calls onReplaced and does not
// re-open; one without (a single backend) re-opens as after any drop. Against a hand-made Attach server
// on a loopback port that accepts every hello and then ends the stream as replaced.
import * as grpc from '@grpc/grpc-js';
import { loadAgentctlProto, type WireAgentctlMessage, type WireBackendMessageOutput } from '@kandev/protocol';
import { type AgentctlEndpoint, AttachClient, createLogger } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { waitUntil } from '../../helpers/wait';

const cleanup = useCleanup();

/** Hellos per backend id; every stream is accepted, then ended as agentctl ends a replaced one. */
async function startReplacingServer(): Promise<{ address: string; hellos: Map<string, number> }> {
  const hellos = new Map<string, number>();
  const server = new grpc.Server();
  server.addService(loadAgentctlProto().kandev.agentctl.v1.AgentCtl.service, {
    Attach: (call: grpc.ServerDuplexStream<WireBackendMessageOutput, WireAgentctlMessage>) => {
      call.on('data', (message: WireBackendMessageOutput) => {
        const id = message.hello?.backend_id;
        if (id === undefined) return;
        hellos.set(id, (hellos.get(id) ?? 0) + 1);
        call.write({ accepted: { agentctl_id: 'fake' } });
        call.emit('error', { code: grpc.status.FAILED_PRECONDITION, details: 'a newer Attach replaced this stream' });
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err === null ? resolve(bound) : reject(err),
    ),
  );
  cleanup.defer(() => server.forceShutdown());
  return { address: `127.0.0.1:${port}`, hellos };
}

function client(address: string, backendId: string, onReplaced?: () => void): AttachClient {
  const attach = new AttachClient({
    endpoint: { grpcAddress: address, controlToken: 'token' } as AgentctlEndpoint,
    backendId,
    sink: { dispatch: () => Promise.resolve() },
    events: { handle: () => Promise.resolve() },
    backoff: { baseMs: 1, maxDelayMs: 1 }, // a re-open would follow at once
    logger: createLogger('silent'),
    ...(onReplaced !== undefined ? { onReplaced } : {}),
  });
  cleanup.defer(() => attach.stop());
  return attach;
}

describe('Attach client: a stream replaced by a newer Attach', () => {
  test('with an owner: onReplaced is told once and the stream is not re-opened', async () => {
    const { address, hellos } = await startReplacingServer();
    let replaced = 0;
    client(address, 'owned', () => (replaced += 1)).start();
    await waitUntil(() => replaced === 1, { timeoutMs: 10_000, what: 'onReplaced' });
    // Barrier: a client without an owner, started after, re-opens twice; the owned one never did.
    client(address, 'single').start();
    await waitUntil(() => (hellos.get('single') ?? 0) >= 3, { timeoutMs: 10_000, what: 'three re-opens' });
    expect(hellos.get('owned')).toBe(1);
    expect(replaced).toBe(1);
  });
});
