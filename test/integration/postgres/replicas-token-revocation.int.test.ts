// Two backend replicas on one PostgreSQL database: a token revoked through replica B ends the event
// stream it opened on replica A (the `token_revoked` signal reaches every replica; A re-reads the
// token and ends its streams). The stream's end is the barrier; the backstop re-check runs every 30 s,
// far beyond the wait, so only the signal can end it. A stream of another token on A goes on.
import { testDatabaseUrl } from '@kandev/backend/testing';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';
import { startReplicaCluster } from '../../helpers/replicas';
import { SseStream } from '../../helpers/sse';

describe('token revocation across replicas', () => {
  const cleanup = useCleanup();

  test('a stream opened on replica A ends when its token is revoked through replica B', async () => {
    // Only in the integration-pg project (test/integration/postgres/): replicas need PostgreSQL.
    const databaseUrl = await testDatabaseUrl(tempDir(cleanup), cleanup);
    if (databaseUrl === undefined) throw new Error('replicas need PostgreSQL: run in the integration-pg project');
    const cluster = await startReplicaCluster(cleanup, { databaseUrl, replicas: 2, agentctls: 1 });
    const [a, b] = cluster.replicas;
    if (a === undefined || b === undefined) throw new Error('two replicas expected');
    const minted = await b.api.create<{ id: string; token: string }>('/api/tokens', { name: 'watcher' });

    const open = (token: string) => SseStream.open(`${a.ready.url}/api/events`, cleanup, { token, timeoutMs: 15_000 });
    const watched = await open(minted.token);
    const other = await open(cluster.apiToken);
    for (const stream of [watched, other]) {
      expect(stream.status).toBe(200);
      await stream.head();
    }

    expect((await b.api.request('DELETE', `/api/tokens/${minted.id}`)).status).toBe(204);
    await watched.untilEnded();
    expect((await new BackendApi(a.ready.url, minted.token).request('GET', '/api/workspaces')).status).toBe(401);

    // Through B, seen live on A by the other token's stream.
    const task = await b.api.task(await b.api.workspace('after revocation'), { title: 'still streamed' });
    await other.next((e) => e.type === 'task.created' && e.task_id === task.id, 'task.created on replica A');
  });
});
