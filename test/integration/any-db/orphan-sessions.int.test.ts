// A CreateSession the backend gave up on (deadline) can still run in agentctl afterwards. The backend
// records the launch as failed and sweeps: agentctl must not keep a session nobody holds a token for.
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { startBackend } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

interface SessionReport {
  state: string;
  tools: string[] | null;
  agentctl: { reachable: boolean; error?: string };
}

describe('orphaned runtime sessions', () => {
  const cleanup = useCleanup();

  test('a launch that timed out but later landed in agentctl is stopped there', async () => {
    const backend = await startBackend(cleanup, { KANDEV_AGENTCTL_TIMEOUT_MS: '300' });
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const workspaceId = await api.workspace();
    const task = await api.task(workspaceId, { title: 'late launch' });

    process.kill(backend.ready.agentctl.pid, 'SIGSTOP');
    let failed;
    try {
      // The backend's readiness probe cannot tell a paused agentctl from a slow one: the call times out.
      failed = await api.request<{ error: { code: string; details: { session_id: string } } }>(
        'POST',
        `/api/tasks/${task.id}/sessions`,
        {},
      );
    } finally {
      process.kill(backend.ready.agentctl.pid, 'SIGCONT');
    }
    expect(failed.status).toBe(504);
    const sessionId = failed.body.error.details.session_id;

    const report = () => api.request<SessionReport>('GET', `/api/sessions/${sessionId}`);
    expect((await report()).body.state).toBe('failed');
    // Once agentctl ran the late CreateSession, a follow-up sweep stops it: agentctl no longer holds it.
    await waitUntil(async () => /no session/.test((await report()).body.agentctl.error ?? ''), {
      timeoutMs: 15_000,
      logs: backend.logs,
      what: 'the orphaned runtime session to be stopped',
    });
    const final = (await report()).body;
    expect(final).toMatchObject({ state: 'failed', tools: null, agentctl: { reachable: true } });
  });
});
