// An agentctl that dies before it answers the backend's first hello: the Attach client reports the
// first stream's end (so an adopted agentctl, which sends no exit event, is checked and restarted),
// and not each failed re-open after it. Against a hand-made Attach server on a loopback port that ends
// every stream without accepting it.
import * as grpc from '@grpc/grpc-js';
import { loadAgentctlProto, type WireAgentctlMessage, type WireBackendMessageOutput } from '@kandev/protocol';
import { type AgentctlEndpoint, AttachClient, createLogger } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { waitUntil } from '../../helpers/wait';

const cleanup = useCleanup();

/** Counts hellos; every stream ends (UNAVAILABLE) before it is accepted. */
async function startRefusingServer(): Promise<{ address: string; hellos: () => number }> {
  let hellos = 0;
  const server = new grpc.Server();
  server.addService(loadAgentctlProto().kandev.agentctl.v1.AgentCtl.service, {
    Attach: (call: grpc.ServerDuplexStream<WireBackendMessageOutput, WireAgentctlMessage>) => {
      call.on('data', () => {
        hellos += 1;
        call.emit('error', { code: grpc.status.UNAVAILABLE, details: 'agentctl is going away' });
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err === null ? resolve(bound) : reject(err),
    ),
  );
  cleanup.defer(() => server.forceShutdown());
  return { address: `127.0.0.1:${port}`, hellos: () => hellos };
}

describe('Attach client: the first stream ends before agentctl accepted it', () => {
  test('onDetached is told once, for the first open, not for each re-open', async () => {
    const { address, hellos } = await startRefusingServer();
    let detached = 0;
    const attach = new AttachClient({
      endpoint: { grpcAddress: address, controlToken: 'token' } as AgentctlEndpoint,
      backendId: 'backend',
      sink: { dispatch: () => Promise.resolve() },
      events: { handle: () => Promise.resolve() },
      backoff: { baseMs: 1, maxDelayMs: 1 },
      logger: createLogger('silent'),
      onDetached: () => (detached += 1),
    });
    cleanup.defer(() => attach.stop());
    attach.start();
    // Barrier: three refused opens; only the first one is reported.
    await waitUntil(() => hellos() >= 3, { timeoutMs: 10_000, what: 'three refused opens' });
    expect(detached).toBe(1);
    expect(attach.attached).toBe(false);
  });
});
