// DELETE /api/tasks/:id against the real backend (which starts its own agentctl) running the scripted
// test agent: archiving the task stops its live session and the agent process is gone.
import { agentPid, launchAgentSession, waitForPidGone } from '../../helpers/agent-runtime';
import { useCleanup } from '../../helpers/cleanup';
import { isPidAlive } from '../../helpers/processes';

describe('archiving a task over REST', () => {
  const cleanup = useCleanup();

  test('DELETE stops the live session and its agent; nothing new may launch; a second DELETE is 204', async () => {
    const { runtime, taskId, session, ready } = await launchAgentSession(cleanup, 'runtime');
    const pid = agentPid(ready);
    expect(isPidAlive(pid)).toBe(true);

    expect((await runtime.api.request('DELETE', `/api/tasks/${taskId}`)).status).toBe(204);
    expect((await runtime.session(session.session_id)).state).toBe('cancelled');
    await waitForPidGone(pid, `agent ${pid} to exit after the task was archived`);

    expect((await runtime.api.request('POST', `/api/tasks/${taskId}/sessions`, {})).status).toBe(409);
    expect((await runtime.api.request('DELETE', `/api/tasks/${taskId}`)).status).toBe(204);
    const listed = await runtime.api.request<{ sessions: { id: string; state: string }[] }>(
      'GET',
      `/api/tasks/${taskId}/sessions`,
    );
    expect(listed.body.sessions).toEqual([expect.objectContaining({ id: session.session_id, state: 'cancelled' })]);
  });
});
