// Sessions on a replica's own local agentctl, over a real database: the sweep fails the live sessions of
// a replica that is gone (no presence, no lease) with a reason naming it, and nothing else; work another
// replica hands over with a `session` signal is done only by the replica whose agentctl holds it.
import {
  AgentctlLossHandler,
  type AgentSessionState,
  createInProcessBackend,
  createLogger,
  launchConfigFor,
  replicaGoneReason,
  ReplicaLocalSessions,
  SessionLanes,
  SingleProcess,
  sessionRow,
  taskRow,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';

const AT = '2026-12-05T10:00:00.000Z';
const ME = 'replica-me';

describe('sessions on replicas’ own local agentctls', () => {
  const cleanup = useCleanup();

  async function world(leaseHolders: string[] = []) {
    const { backend } = await createInProcessBackend(cleanup);
    const { uow } = backend;
    await uow.read.workspaces.insert({ id: 'ws', name: 'ws', createdAt: AT });
    await uow.transaction((stores) => stores.tasks.insert(taskRow('task', 'ws', AT)));
    const calls: string[] = [];
    const clock = () => new Date(AT);
    const losses = new AgentctlLossHandler({ uow, clock, lanes: new SessionLanes(), logger: createLogger('silent') });
    const local = new ReplicaLocalSessions({
      uow,
      logger: createLogger('silent'),
      fail: (session, reason) => losses.handle(session, reason),
      home: ME,
      replicas: new SingleProcess('replica-process', { timing: { ttlMs: 10_000, renewMs: 3_000 } }),
      liveHomes: () => Promise.resolve(new Set(leaseHolders)),
      reconcile: (id) => void calls.push(`reconcile ${id}`),
      kick: (id) => Promise.resolve(void calls.push(`kick ${id}`)),
      stopRuntime: (session) => Promise.resolve(calls.push(`stop ${session.id}`)),
      catchUp: () => Promise.resolve(calls.push('catch up')),
    });
    const insert = async (
      id: string,
      replica: string | null,
      state: AgentSessionState = 'waiting_for_input',
      applied = 1,
    ) => {
      const config = launchConfigFor({ id, taskId: 'task', workspaceId: 'ws' }, { revision: 2 });
      await uow.read.sessions.insert({
        ...sessionRow(config, { at: AT, state }),
        agentctlReplica: replica,
        appliedRevision: applied,
      });
    };
    return { uow, local, calls, insert };
  }

  test('the sweep fails only the live sessions of a backend whose home lease is gone', async () => {
    const { uow, local, insert } = await world(['replica-leasing']);
    await insert('gone', 'replica-gone');
    await insert('gone-running', 'replica-gone', 'running');
    await insert('gone-ended', 'replica-gone', 'cancelled');
    await insert('leasing', 'replica-leasing');
    await insert('mine', ME);
    await insert('shared', null);
    expect((await local.sweepLost()).sort()).toEqual(['gone', 'gone-running']);
    for (const id of ['gone', 'gone-running']) {
      expect(await uow.read.sessions.findById(id)).toMatchObject({
        state: 'failed',
        lastError: expect.stringContaining(replicaGoneReason('replica-gone')) as unknown,
      });
    }
    for (const [id, state] of [
      ['gone-ended', 'cancelled'],
      ['leasing', 'waiting_for_input'],
      ['mine', 'waiting_for_input'],
      ['shared', 'waiting_for_input'],
    ] as const) {
      expect((await uow.read.sessions.findById(id))?.state).toBe(state);
    }
    expect(await local.sweepLost()).toEqual([]); // nothing more to fail
  });

  test('handed-over work runs only for this replica’s sessions: push when behind, drain, stop once ended', async () => {
    const { local, calls, insert } = await world();
    await insert('behind', ME, 'waiting_for_input', 1);
    await insert('in-sync', ME, 'waiting_for_input', 2);
    await insert('ended', ME, 'cancelled');
    await insert('theirs', 'replica-other');
    await insert('shared', null);
    for (const id of ['behind', 'in-sync', 'ended', 'theirs', 'shared', 'unknown']) await local.serve(id);
    expect(calls).toEqual(['reconcile behind', 'kick behind', 'kick in-sync', 'stop ended']);
  });
});
