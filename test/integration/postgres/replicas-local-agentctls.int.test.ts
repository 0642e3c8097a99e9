// Two backend replicas on one PostgreSQL, each with its own local agentctl (ports of its own), as two
// hosts running `npm start` on one database would. Each launches an MCP-only session on its agentctl;
// sources change through the OTHER replica and reach the agentctl that holds the session (list_changed
// on that session's client, the tools follow); tool calls are served on both. One replica is SIGKILLed:
// the survivor's session keeps working, the dead replica's session fails with a reason naming it, and
// after the lease TTL plus a sweep no lease of the dead replica and no live session on it is left.
import { randomBytes } from 'node:crypto';
import { createPostgresDatabase, type ReplicasView, testDatabaseUrl } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { connectStreaming, expectListChangedCount, LiveApi, providersIn } from '../../helpers/live-updates';
import type { McpConnection } from '../../helpers/mcp';
import { killPid, startBackend, tempDir } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

/** Short leases: a dead replica is noticed within seconds (docs/replicas.md). */
const LEASES = { KANDEV_REPLICA_LEASE_TTL_MS: '3000', KANDEV_REPLICA_LEASE_RENEW_MS: '1000' };
const SETTLE_MS = 30_000;

interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
}

async function getTask(mcp: McpConnection, taskId: string): Promise<ToolResult> {
  return (await mcp.client.callTool({ name: 'get_task_kandev', arguments: { task_id: taskId } })) as ToolResult;
}

/**
 * get_task_kandev once the Attach stream its agentctl forwards calls on is open: a lease taken is not yet
 * a stream opened, and until then agentctl answers "No backend is attached" (that answer is the barrier).
 */
async function getTaskWhenAttached(mcp: McpConnection, taskId: string, logs: () => string): Promise<ToolResult> {
  return waitUntil(
    async () => {
      const result = await getTask(mcp, taskId);
      const text = result.content.map((c) => c.text).join('\n');
      return /No backend is attached/.test(text) ? undefined : result;
    },
    { timeoutMs: SETTLE_MS, logs, what: 'the Attach stream to serve tool calls' },
  );
}

describe('replicas on one PostgreSQL, each with its own local agentctl', () => {
  const cleanup = useCleanup();

  test('each serves its sessions; changes through the other reach them; a killed replica fails only its own', async () => {
    const databaseUrl = await testDatabaseUrl(tempDir(cleanup), cleanup);
    if (databaseUrl === undefined) throw new Error('replicas need PostgreSQL: run in the integration-pg project');
    const env = {
      KANDEV_DATABASE_URL: databaseUrl,
      KANDEV_API_TOKEN: randomBytes(24).toString('hex'),
      KANDEV_SECRET_KEY: randomBytes(32).toString('hex'),
      ...LEASES,
    };
    // One after the other: the first applies the migrations.
    const first = await startBackend(cleanup, env);
    const second = await startBackend(cleanup, env);
    const logs = () => `--- first\n${first.logs()}\n--- second\n${second.logs()}`;
    const apis = [first, second].map((replica) => new LiveApi(replica.ready.url, replica.apiToken));
    const [apiA, apiB] = apis as [LiveApi, LiveApi];
    expect(first.ready.agentctl.grpcAddress).not.toBe(second.ready.agentctl.grpcAddress);
    const replicaIds = await Promise.all(
      apis.map(async (api) => (await api.request<ReplicasView>('GET', '/api/replicas')).body.replica_id),
    );
    const [idA, idB] = replicaIds as [string, string];

    const workspaceId = await apiA.workspace();
    const github = await apiA.repository(workspaceId, { remote_url: 'https://github.com/acme/api' });
    const taskA = await apiA.task(workspaceId, { title: 'on A', repository_ids: [github.id] });
    const taskB = await apiA.task(workspaceId, { title: 'on B', repository_ids: [github.id] });
    const sessionA = await apiA.launch(taskA.id);
    const sessionB = await apiB.launch(taskB.id);
    const mcpA = await connectStreaming(cleanup, sessionA, logs);
    const mcpB = await connectStreaming(cleanup, sessionB, logs);
    // Each replica keeps its own agentctl's Attach stream: a lease per replica, not one per address.
    const attach = await waitUntil(
      async () => {
        const view = (await apiA.request<ReplicasView>('GET', '/api/replicas')).body.attach;
        return view.length === 2 ? view : undefined;
      },
      { timeoutMs: SETTLE_MS, logs, what: 'both Attach leases' },
    );
    // Each agentctl is local to its backend's home (the data dir's backend id), held by that replica.
    const homeOf = (replica: string) => attach.find((lease) => lease.owner === replica)?.local_to;
    const [homeA, homeB] = [homeOf(idA), homeOf(idB)];
    expect(homeA).toEqual(expect.any(String));
    expect(homeB).toEqual(expect.any(String));
    expect(homeA).not.toBe(homeB);

    // A source added through the replica that does not hold the session reaches its agentctl.
    const toA = await apiB.addSources(taskA.id, [{ remote_url: 'https://gitlab.com/acme/web' }]);
    expect(toA.status).toBe(201);
    expect(toA.body.refresh.status).toBe('dispatched');
    await expectListChangedCount(mcpA, 1, logs);
    expect(providersIn(await mcpA.toolNames())).toEqual(['github', 'gitlab']);
    const toB = await apiA.addSources(taskB.id, [{ remote_url: 'https://gitlab.com/acme/web' }]);
    expect(toB.body.refresh.status).toBe('dispatched');
    await expectListChangedCount(mcpB, 1, logs);
    expect(providersIn(await mcpB.toolNames())).toEqual(['github', 'gitlab']);
    for (const [api, session] of [
      [apiB, sessionA],
      [apiA, sessionB],
    ] as const) {
      const seen = await waitUntil(
        async () => {
          const body = await api.session(session.session_id);
          return body.applied_revision === 2 ? body : undefined;
        },
        { timeoutMs: SETTLE_MS, logs, what: `session ${session.session_id} acknowledged at revision 2` },
      );
      expect(seen).toMatchObject({ state: 'waiting_for_input', refresh_error: null, last_error: null });
    }
    // Tool calls are served by the replica holding each agentctl's stream.
    expect((await getTaskWhenAttached(mcpA, taskA.id, logs)).isError).toBeFalsy();
    expect((await getTaskWhenAttached(mcpB, taskB.id, logs)).isError).toBeFalsy();

    // SIGKILL the first replica (its local agentctl outlives it, as a crashed host's would not matter).
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    killPid(first.child.pid ?? -1);
    await exited;
    const failedA = await waitUntil(
      async () => {
        const body = await apiB.session(sessionA.session_id);
        return body.state === 'failed' ? body : undefined;
      },
      { timeoutMs: SETTLE_MS, logs, what: 'the dead replica’s session to fail' },
    );
    expect(failedA.last_error).toContain(`backend ${String(homeA)}`);

    // The survivor's session keeps working: a change reaches it, its tool calls are served.
    const removed = await apiB.removeSource(taskB.id, github.id);
    expect(removed.status).toBe(200);
    expect(removed.body.refresh.status).toBe('applied');
    await expectListChangedCount(mcpB, 2, logs);
    expect(providersIn(await mcpB.toolNames())).toEqual(['gitlab']);
    expect((await getTask(mcpB, taskB.id)).isError).toBeFalsy();
    expect(await apiB.session(sessionB.session_id)).toMatchObject({ state: 'waiting_for_input', last_error: null });

    // Nothing of the dead replica is left once its leases ran out and a sweep ran.
    const db = createPostgresDatabase(databaseUrl, { min: 0, max: 1 });
    cleanup.defer(() => db.destroy());
    await waitUntil(async () => (await db('leases').where({ owner: idA }).count({ n: '*' }))[0]?.n == 0, {
      timeoutMs: SETTLE_MS,
      logs,
      what: 'the dead replica’s leases to be deleted',
    });
    const live = await db('sessions')
      .where({ agentctl_replica: idA })
      .whereIn('state', ['created', 'starting', 'running', 'waiting_for_input'])
      .count({ n: '*' });
    expect(Number(live[0]?.n)).toBe(0);
  });

  test('a backend killed and restarted on its data dir keeps the sessions of its local agentctl', async () => {
    const databaseUrl = await testDatabaseUrl(tempDir(cleanup), cleanup);
    if (databaseUrl === undefined) throw new Error('replicas need PostgreSQL: run in the integration-pg project');
    const dataDir = tempDir(cleanup);
    const env = {
      KANDEV_DATABASE_URL: databaseUrl,
      KANDEV_DATA_DIR: dataDir,
      KANDEV_API_TOKEN: randomBytes(24).toString('hex'),
      KANDEV_SECRET_KEY: randomBytes(32).toString('hex'),
      ...LEASES,
    };
    const before = await startBackend(cleanup, env);
    const api = new LiveApi(before.ready.url, before.apiToken);
    const workspaceId = await api.workspace();
    const github = await api.repository(workspaceId, { remote_url: 'https://github.com/acme/api' });
    const task = await api.task(workspaceId, { title: 'kept', repository_ids: [github.id] });
    const session = await api.launch(task.id);
    const { replica_id: oldReplica } = (await api.request<ReplicasView>('GET', '/api/replicas')).body;
    const exited = new Promise((resolve) => before.child.once('exit', resolve));
    killPid(before.child.pid ?? -1);
    await exited;

    // Same data dir, same agentctl (adopted): its sessions are this backend's again.
    const after = await startBackend(cleanup, env);
    expect(after.ready.agentctl.pid).toBe(before.ready.agentctl.pid);
    const logs = () => `--- before\n${before.logs()}\n--- after\n${after.logs()}`;
    const again = new LiveApi(after.ready.url, after.apiToken);
    const mcp = await connectStreaming(cleanup, session, logs);
    const added = await again.addSources(task.id, [{ remote_url: 'https://gitlab.com/acme/web' }]);
    expect(added.body.refresh.status).toBe('applied');
    await expectListChangedCount(mcp, 1, logs);
    expect(providersIn(await mcp.toolNames())).toEqual(['github', 'gitlab']);
    // Barrier: every lease of the killed process ran out and was deleted, then the restarted backend
    // renewed its home again, so a whole sweep for gone backends ran after the old one was gone.
    const db = createPostgresDatabase(databaseUrl, { min: 0, max: 1 });
    cleanup.defer(() => db.destroy());
    await waitUntil(async () => (await db('leases').where({ owner: oldReplica }).first()) === undefined, {
      timeoutMs: SETTLE_MS,
      logs,
      what: 'the killed process’s leases to go',
    });
    const { replica_id: replicaId } = (await again.request<ReplicasView>('GET', '/api/replicas')).body;
    const renewedAt = async () =>
      Number(
        (await db('leases').where('name', 'like', 'home:%').where({ owner: replicaId }).first())?.expires_at_ms ?? 0,
      );
    const first = await waitUntil(async () => ((await renewedAt()) > 0 ? renewedAt() : undefined), {
      timeoutMs: SETTLE_MS,
      logs,
      what: 'the home lease',
    });
    await waitUntil(async () => (await renewedAt()) > first, { timeoutMs: SETTLE_MS, logs, what: 'a later sweep' });
    expect(await again.session(session.session_id)).toMatchObject({ state: 'waiting_for_input', last_error: null });
  });
});
