// The round trips the backend waits for on PostgreSQL per operation (docs/database.md#postgresql),
// counted on the wire by a proxy between the in-process backend's connections and the server. Each
// operation runs once before it is counted, so its connections are open and its statements named.
import {
  createInProcessBackend,
  createPostgresDatabase,
  FakeAgentctl,
  fakeAgentctlPort,
  launchConfigFor,
  repositoryRow,
  sessionRow,
  ENDPOINT,
  taskRow,
  testDatabaseUrl,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';
import { startRoundTripProxy } from '../../helpers/postgres-round-trips';

const NOW = '2026-12-05T10:00:00.000Z';

describe('round trips on PostgreSQL', () => {
  const cleanup = useCleanup();

  async function setup() {
    const dataDir = tempDir(cleanup, 'kandev-round-trips-');
    const proxy = await startRoundTripProxy(cleanup, (await testDatabaseUrl(dataDir, cleanup)) as string);
    const db = createPostgresDatabase(proxy.url);
    cleanup.defer(() => db.destroy());
    const agentctl = new FakeAgentctl();
    const { backend } = await createInProcessBackend(cleanup, {
      db,
      dataDir,
      clock: () => new Date(NOW),
      agentctl: fakeAgentctlPort(agentctl),
    });
    const { uow } = backend;
    await uow.read.workspaces.insert({ id: 'w', name: 'w', createdAt: NOW });
    for (const id of ['t', 'live']) await uow.read.tasks.insert(taskRow(id, 'w', NOW));
    for (const id of ['r1', 'r2']) {
      await uow.read.repositories.insert(repositoryRow(id, 'w', NOW, { identityKey: `github.com/acme/${id}` }));
    }
    // A session agentctl holds on task `live`, waiting for input: a source change pushes to it.
    const config = launchConfigFor({ id: 's1', taskId: 'live', workspaceId: 'w' });
    await uow.read.sessions.insert(
      sessionRow(config, { state: 'waiting_for_input', agentctlAddress: ENDPOINT.grpcAddress, at: NOW }),
    );
    agentctl.held.set('s1', config);
    return { proxy, backend, config };
  }

  test('a source add waits for 2, a removal for 2; with a live session agentctl answers in 2 more', async () => {
    const { proxy, backend } = await setup();
    const { sources } = backend;
    const add = (taskId: string, repositoryId: string) =>
      sources.add(taskId, { sources: [{ repository_id: repositoryId }] }, 'applied');
    const addThenRemove = async (taskId: string) => {
      const added = await proxy.count(() => add(taskId, 'r1'));
      const removed = await proxy.count(() => sources.remove(taskId, 'r1', 'applied'));
      return { added, removed };
    };
    await addThenRemove('t'); // warm-up
    expect(await addThenRemove('t')).toEqual({ added: 2, removed: 2 });
    await addThenRemove('live'); // warm-up of the push and its recording
    expect(await addThenRemove('live')).toEqual({ added: 4, removed: 4 });
  });

  test("recording agentctl's answers to a live update waits for 2", async () => {
    const { proxy, backend, config } = await setup();
    const session = { id: 's1', executor: 'local', agentctlAddress: ENDPOINT.grpcAddress };
    const push = async (revision: number) => {
      // The desired revision moves first, as a source change does.
      await backend.uow.read.sessions.updateDesiredMany([{ id: config.sessionId, revision }], ['github'], NOW);
      return proxy.count(() => backend.pusher.syncMany([{ session, providers: ['github'], revision }]));
    };
    await push(2);
    expect(await push(3)).toBe(2);
  });
});
