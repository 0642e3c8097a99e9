// Fault suite: the backend SIGKILLed in the middle of a live source batch. The batch's transaction is
// all or nothing; the push it was waiting on never came back; the restarted backend adopts agentctl
// and its boot sweep brings the session to the committed set.
import { useCleanup } from '../../helpers/cleanup';
import { openTestDatabase } from '@kandev/backend/testing';
import {
  connectStreaming,
  expectListChangedCount,
  LiveApi,
  providersIn,
  startLiveBackend,
  whileStopped,
} from '../../helpers/live-updates';
import { finalListChangedCount } from '../../helpers/mcp';
import { startBackend } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

/** A push to a stopped agentctl would otherwise fail on its deadline before the kill lands. */
const SLOW_DEADLINE = { KANDEV_AGENTCTL_TIMEOUT_MS: '60000', KANDEV_REFRESH_RETRY_BASE_MS: '3600000' };

/** The session's desired revision as committed in the database (read beside the running backend). */
async function committedRevision(dataDir: string, sessionId: string): Promise<number> {
  const db = await openTestDatabase(dataDir);
  try {
    const row = await db('sessions')
      .where({ id: sessionId })
      .first<{ revision: number | string } | undefined>('revision');
    return Number(row?.revision);
  } finally {
    await db.destroy();
  }
}

describe('faults: the backend killed mid-batch', () => {
  const cleanup = useCleanup();

  test('killed while its push waits on agentctl: the batch is committed, the restarted backend repairs the session', async () => {
    const { backend, api, workspaceId } = await startLiveBackend(cleanup, SLOW_DEADLINE);
    const github = await api.repository(workspaceId, { remote_url: 'https://github.com/acme/api' });
    const task = await api.task(workspaceId, { title: 't', repository_ids: [github.id] });
    const session = await api.launch(task.id);
    const mcp = await connectStreaming(cleanup, session, backend.logs);
    expect(providersIn(await mcp.toolNames())).toEqual(['github']);

    await whileStopped(backend.ready.agentctl.pid, async () => {
      const batch = api.addSources(task.id, [{ remote_url: 'https://gitlab.com/acme/web' }]);
      // Barrier: the batch's transaction committed (revision 2), so its push to the stopped agentctl
      // is in flight now. Kill the backend there: the client never gets an answer.
      await waitUntil(async () => (await committedRevision(backend.dataDir, session.session_id)) === 2, {
        timeoutMs: 10_000,
        logs: backend.logs,
        what: 'the batch to commit',
      });
      backend.child.kill('SIGKILL');
      await expect(batch).rejects.toThrow();
    });

    const second = await startBackend(cleanup, { ...SLOW_DEADLINE, KANDEV_DATA_DIR: backend.dataDir });
    expect(second.ready.agentctl.pid).toBe(backend.ready.agentctl.pid); // adopted, sessions kept
    const api2 = new LiveApi(second.ready.url, second.apiToken);
    expect((await api2.getTask(task.id)).providers).toEqual(['github', 'gitlab']);
    // agentctl may have taken the push that was in flight when it resumed, or the sweep pushed it:
    // either way exactly one change reaches the client.
    await expectListChangedCount(mcp, 1, second.logs);
    expect(providersIn(await mcp.toolNames())).toEqual(['github', 'gitlab']);
    const repaired = await waitUntil(
      async () => {
        const body = await api2.session(session.session_id);
        return body.applied_revision === 2 ? body : undefined;
      },
      { timeoutMs: 10_000, logs: second.logs, what: 'the sweep to record the refresh' },
    );
    expect(repaired).toMatchObject({ revision: 2, refresh_error: null, state: 'waiting_for_input' });
    expect((await api2.stopSession(session.session_id)).status).toBe(200);
    expect(await finalListChangedCount(mcp, second.logs)).toBe(1);
  });
});
