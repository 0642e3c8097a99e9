// Two backend replicas on one PostgreSQL share one agentctl, with 2 s leases renewed every 0.5 s. A replica
// is SIGKILLed and the one left cleans up after it: a question its Attach stream held, on an MCP-only
// session (no agent), answered through the survivor, is recorded undeliverable and queues nothing; a
// launch it was in the middle of (agentctl stopped under it) leaves no lease and no unstarted session
// once the lease TTL and one sweep have passed.
import { createPostgresDatabase, type Database, testDatabaseUrl } from '@kandev/backend/testing';
import type { LaunchedSession } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp, type McpConnection } from '../../helpers/mcp';
import { killPid, tempDir } from '../../helpers/processes';
import { type Replica, type ReplicaCluster, startReplicaCluster, streamHolder } from '../../helpers/replicas';
import { waitUntil } from '../../helpers/wait';

const LEASE_ENV = { KANDEV_REPLICA_LEASE_TTL_MS: '2000', KANDEV_REPLICA_LEASE_RENEW_MS: '500' };
/** Generous next to TTL + one sweep (2.5 s): a loaded two-CPU runner. */
const CLEANED_MS = 30_000;
const OPTIONS = [{ label: 'SQLite' }, { label: 'Postgres' }];

interface ToolResult {
  content: { type: string; text: string }[];
}

describe('two replicas on one PostgreSQL: the survivor cleans up after a killed one', () => {
  const cleanup = useCleanup();

  async function cluster(): Promise<{ cluster: ReplicaCluster; db: Database }> {
    // Only in the integration-pg project (test/integration/postgres/): replicas need PostgreSQL.
    const databaseUrl = await testDatabaseUrl(tempDir(cleanup), cleanup);
    if (databaseUrl === undefined) throw new Error('replicas need PostgreSQL: run in the integration-pg project');
    const started = await startReplicaCluster(cleanup, { databaseUrl, replicas: 2, agentctls: 1, env: LEASE_ENV });
    const db = createPostgresDatabase(databaseUrl, { min: 0, max: 1 });
    cleanup.defer(() => db.destroy());
    return { cluster: started, db };
  }

  const wait = <T>(c: ReplicaCluster, probe: () => Promise<T | undefined>, what: string) =>
    waitUntil(probe, { timeoutMs: CLEANED_MS, logs: () => c.logs(), what });

  async function replicaId(replica: Replica): Promise<string> {
    return (await replica.api.request<{ replica_id: string }>('GET', '/api/replicas')).body.replica_id;
  }

  /** The survivor holds the Attach lease: it took it over, so the dead replica's presence is gone. */
  async function tookOver(c: ReplicaCluster, survivor: Replica): Promise<void> {
    const id = await replicaId(survivor);
    await wait(
      c,
      async () => {
        const { body } = await survivor.api.request<{ attach: { owner: string }[] }>('GET', '/api/replicas');
        return body.attach.some((lease) => lease.owner === id) || undefined;
      },
      'the survivor to hold the Attach lease',
    );
  }

  async function attached(c: ReplicaCluster, mcp: McpConnection): Promise<void> {
    await wait(
      c,
      async () => {
        const result = (await mcp.client.callTool({ name: 'get_task_kandev', arguments: {} })) as ToolResult;
        return /No backend is attached/.test(result.content.map((p) => p.text).join('')) ? undefined : true;
      },
      'a backend attached',
    );
  }

  test('a question held by a killed replica on an MCP-only session: undeliverable, nothing queued', async () => {
    const { cluster: c } = await cluster();
    const api = c.replicas[0]!.api;
    const task = await api.task(await api.workspace(), { title: 'mcp only' });
    const session: LaunchedSession = await api.launch(task.id); // no agent profile: an MCP-only session
    const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
    await attached(c, mcp);
    const holder = await streamHolder(c); // the call is held on the replica owning the Attach stream
    const survivor = c.replicas.find((replica) => replica !== holder)!;
    const call = mcp.client
      .callTool({
        name: 'ask_user_question_kandev',
        arguments: { questions: [{ prompt: 'Which?', options: OPTIONS }] },
      })
      .catch((error: unknown) => error); // its holder dies under it
    const pending = await wait(
      c,
      async () => {
        const path = `/api/questions?task_id=${task.id}&state=pending`;
        const { body } = await survivor.api.request<{ questions: { id: string }[] }>('GET', path);
        return body.questions[0]?.id;
      },
      'the question to be pending',
    );
    await c.kill(holder);
    await tookOver(c, survivor);
    const answered = await survivor.api.request<{ answer_delivery: string; delivery: { to: string } }>(
      'POST',
      `/api/questions/${pending}/answer`,
      { answers: [{ question_index: 0, option: 'Postgres' }] },
    );
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ answer_delivery: 'undeliverable', delivery: { to: 'undeliverable' } });
    // Committed with the answer: nothing was queued for the session, nothing written to its conversation.
    expect(await survivor.api.prompts(session.session_id)).toEqual([]);
    const messages = await survivor.api.request<{ messages: unknown[] }>('GET', `/api/tasks/${task.id}/messages`);
    expect(messages.body.messages).toEqual([]);
    await call;
  });

  test("a replica killed mid-launch: its lease and its unstarted session are cleaned up by the survivor's sweeps", async () => {
    const { cluster: c, db } = await cluster();
    const [survivor, victim] = c.replicas as [Replica, Replica];
    const victimId = await replicaId(victim);
    const task = await survivor.api.task(await survivor.api.workspace(), { title: 'launched by the victim' });
    // agentctl stopped: the victim's launch hangs at CreateSession, holding its launch lease.
    const agentctlPid = c.agentctls[0]!.daemon.child.pid ?? -1;
    killPid(agentctlPid, 'SIGSTOP');
    let stopped = true;
    cleanup.defer(() => {
      if (stopped) killPid(agentctlPid, 'SIGCONT');
    });
    const launching = victim.api.launch(task.id).catch((error: unknown) => error); // dies under it
    const sessionId = await wait(
      c,
      async () => {
        const row = await db('leases').where('owner', victimId).where('name', 'like', 'launch:%').first('name');
        const name = (row as { name: string } | undefined)?.name;
        if (name === undefined) return undefined;
        const id = name.slice('launch:'.length);
        const session = await db('sessions').where({ id }).first('state');
        return session === undefined ? undefined : id;
      },
      "the victim's launch to hold its lease with its session row written",
    );
    expect(['created', 'starting']).toContain(await stateOf(db, sessionId));
    await c.kill(victim);
    killPid(agentctlPid, 'SIGCONT');
    stopped = false;
    await launching;
    // Within the lease TTL and one sweep: the session is no longer unstarted (failed, or recorded as
    // started if its CreateSession reached agentctl), and no lease of the dead replica is left.
    const repaired = await wait(
      c,
      async () => {
        const state = await stateOf(db, sessionId);
        return state === 'created' || state === 'starting' ? undefined : state;
      },
      'the unstarted session to be repaired',
    );
    expect(['failed', 'waiting_for_input']).toContain(repaired);
    await wait(
      c,
      async () =>
        (await db('leases').where('owner', victimId).count<{ n: string }[]>({ n: '*' }))[0]?.n === '0'
          ? true
          : undefined,
      'every lease of the dead replica to be deleted',
    );
  });
});

async function stateOf(db: Database, sessionId: string): Promise<string | undefined> {
  const row = await db('sessions').where({ id: sessionId }).first<{ state: string } | undefined>('state');
  return row?.state;
}
