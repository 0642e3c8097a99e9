// Revoking an API token ends the GET /api/events streams it opened (bearer or console cookie), against
// a real backend process on either database; a stream opened by another token stays live. The stream's
// end is the barrier (the backstop re-check runs every 30 s, far beyond the wait: only the revocation
// can end it); the live stream's next event is the barrier that it was left alone.
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { startBackend } from '../../helpers/processes';
import { SseStream } from '../../helpers/sse';

const TIMEOUT_MS = 10_000;

describe('event streams end when their token is revoked', () => {
  const cleanup = useCleanup();

  test('bearer and cookie streams of a revoked token end; another token’s stream goes on', async () => {
    const backend = await startBackend(cleanup);
    const base = backend.ready.url;
    const admin = new BackendApi(base, backend.apiToken);
    const minted = await admin.create<{ id: string; token: string }>('/api/tokens', { name: 'watcher' });
    const login = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: minted.token }),
    });
    expect(login.status).toBe(204);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/^kandev_session=/);

    const open = (options: { token?: string; headers?: Record<string, string> }) =>
      SseStream.open(`${base}/api/events`, cleanup, { ...options, timeoutMs: TIMEOUT_MS });
    const bearer = await open({ token: minted.token });
    const viaCookie = await open({ headers: { cookie } });
    const other = await open({ token: backend.apiToken });
    for (const stream of [bearer, viaCookie, other]) {
      expect(stream.status).toBe(200);
      await stream.head();
    }

    expect((await admin.request('DELETE', `/api/tokens/${minted.id}`)).status).toBe(204);
    await bearer.untilEnded();
    await viaCookie.untilEnded();
    expect((await new BackendApi(base, minted.token).request('GET', '/api/workspaces')).status).toBe(401);

    const workspaceId = await admin.workspace('after revocation');
    const task = await admin.task(workspaceId, { title: 'seen by the live stream' });
    const seen = await other.next((e) => e.type === 'task.created' && e.task_id === task.id, 'task.created');
    expect(seen.task_id).toBe(task.id);
    expect(bearer.events.some((e) => e.task_id === task.id)).toBe(false);
  });
});
