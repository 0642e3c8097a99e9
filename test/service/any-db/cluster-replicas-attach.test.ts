// Three backend replicas over ONE database (PostgreSQL in the service-pg project; on SQLite shared leases
// are forced), each told by its executor that the same agentctl is up: exactly one holds its Attach
// lease, every replica's GET /api/replicas says which, and when the holder stops gracefully another takes
// the stream over at its next renewal (the composition root's wiring of runtime/agentctl/attach-ownership.ts).
import {
  createApp,
  createInProcessBackend,
  ENDPOINT,
  FakeAgentctl,
  fakeAgentctlPort,
  listen,
  type ReplicasView,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { waitUntil } from '../../helpers/wait';

const cleanup = useCleanup();
const REPLICAS = { ttlMs: 60_000, renewMs: 5, shared: true };

async function replica(db?: Awaited<ReturnType<typeof createInProcessBackend>>['db']) {
  const agentctl = fakeAgentctlPort(new FakeAgentctl());
  const created = await createInProcessBackend(cleanup, { db, agentctl, config: { replicas: REPLICAS } });
  const server = await listen(createApp(created.logger, created.backend.routers), '127.0.0.1', 0);
  cleanup.defer(() => server.close());
  const view = async (): Promise<ReplicasView> =>
    (await fetch(`http://127.0.0.1:${server.port}/api/replicas`)).json() as Promise<ReplicasView>;
  const announce = () =>
    (agentctl.events as unknown as { up(slot: string, e: typeof ENDPOINT): void }).up('local', ENDPOINT);
  return { ...created, view, announce };
}

describe('several replicas: Attach ownership through the composition root', () => {
  it('one replica holds an agentctl’s stream; a graceful stop hands it to another', async () => {
    const first = await replica();
    const replicas = [first, await replica(first.db), await replica(first.db)];
    for (const r of replicas) r.announce();
    const ids = await Promise.all(replicas.map(async (r) => (await r.view()).replica_id));
    expect(new Set(ids).size).toBe(3);
    const owner = await waitUntil(async () => (await first.view()).attach[0]?.owner, { timeoutMs: 10_000 });
    expect(ids).toContain(owner);
    // Every replica reads the same owner; only the owner says it is its own.
    const views = await Promise.all(replicas.map((r) => r.view()));
    expect(views.map((v) => v.attach.map((a) => [a.grpc_address, a.owner]))).toEqual(
      replicas.map(() => [[ENDPOINT.grpcAddress, owner]]),
    );
    expect(views.map((v) => v.attach[0]?.mine)).toEqual(ids.map((id) => id === owner));

    const holder = replicas[ids.indexOf(owner)]!;
    await holder.backend.stop();
    const survivor = replicas.find((r) => r !== holder)!;
    const successor = await waitUntil(
      async () => {
        const next = (await survivor.view()).attach[0]?.owner;
        return next !== undefined && next !== owner ? next : undefined;
      },
      { timeoutMs: 10_000, what: 'another replica to take the Attach lease' },
    );
    expect(ids.filter((id) => id !== owner)).toContain(successor);
  });
});
