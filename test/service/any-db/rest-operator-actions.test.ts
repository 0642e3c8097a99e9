// The operator's actions over the backend's real routers on a loopback port (services in process over
// a real database, a fake agentctl): a task's state moves (PATCH /api/tasks/:id {state}), unarchive,
// relaunching an ended session, cancelling a queued prompt, and the failure fields of session views.
import {
  createApp,
  createInProcessBackend,
  FakeAgentctl,
  fakeAgentctlPort,
  launchConfigFor,
  listen,
  sessionRow,
} from '@kandev/backend/testing';
import { BackendApi, type PromptItemBody } from '../../helpers/backend-api';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';

const AT = '2026-12-01T10:00:00.000Z';

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

async function serve(cleanup: Cleanup) {
  const agentctl = new FakeAgentctl();
  const env = await createInProcessBackend(cleanup, { agentctl: fakeAgentctlPort(agentctl) });
  const server = await listen(createApp(env.logger, env.backend.routers), '127.0.0.1', 0);
  cleanup.defer(() => server.close());
  const api = new BackendApi(`http://127.0.0.1:${server.port}`);
  const workspaceId = await api.workspace();
  const stores = env.backend.uow.read;
  /** The task's events of these types, oldest first. */
  const events = async (taskId: string, type: 'task.updated' | 'queue.changed') =>
    stores.events.after(0, { taskId, types: [type] }, 100);
  return { env, api, agentctl, workspaceId, stores, events };
}

describe('PATCH /api/tasks/:id {state}', () => {
  const cleanup = useCleanup();

  test('an allowed move is made with one task.updated naming from and to', async () => {
    const { api, workspaceId, events } = await serve(cleanup);
    const task = await api.task(workspaceId, { title: 't' });
    const moved = await api.request<{ state: string }>('PATCH', `/api/tasks/${task.id}`, { state: 'in_progress' });
    expect(moved).toMatchObject({ status: 200, body: { state: 'in_progress' } });
    const [event] = await events(task.id, 'task.updated');
    expect(event?.data).toMatchObject({
      task: { id: task.id, state: 'in_progress' },
      change: { state: { from: 'todo', to: 'in_progress' } },
    });
    // The same state again: 200, no change, no event (the title change after it is the barrier).
    expect((await api.request('PATCH', `/api/tasks/${task.id}`, { state: 'in_progress' })).status).toBe(200);
    expect((await api.request('PATCH', `/api/tasks/${task.id}`, { title: 'later' })).status).toBe(200);
    const after = await events(task.id, 'task.updated');
    expect(after.map((e) => (e.data.change as { state?: unknown } | undefined)?.state ?? 'title')).toEqual([
      { from: 'todo', to: 'in_progress' },
      'title',
    ]);
  });

  test('a move the table refuses is a 409 naming from and to; nothing changes', async () => {
    const { api, workspaceId, events } = await serve(cleanup);
    const task = await api.task(workspaceId, { title: 't' });
    const refused = await api.request<ErrorBody>('PATCH', `/api/tasks/${task.id}`, { state: 'review', title: 'x' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'failed_precondition',
      details: { from: 'todo', to: 'review', allowed: ['in_progress', 'done'] },
    });
    expect(refused.body.error.message).toContain('from todo to review');
    expect((await api.request('GET', `/api/tasks/${task.id}`)).body).toMatchObject({ state: 'todo', title: 't' });
    expect((await api.request('PATCH', `/api/tasks/${task.id}`, { state: 'sleeping' })).status).toBe(400);
    expect((await api.request('PATCH', '/api/tasks/unknown', { state: 'done' })).status).toBe(404);
    expect((await api.request('PATCH', `/api/tasks/${task.id}`, { title: 'barrier' })).status).toBe(200);
    expect((await events(task.id, 'task.updated')).map((e) => e.data.change ?? null)).toEqual([null]);
  });

  test('an archived task keeps its state (409) until it is unarchived', async () => {
    const { api, workspaceId, events } = await serve(cleanup);
    const task = await api.task(workspaceId, { title: 't' });
    expect((await api.request('DELETE', `/api/tasks/${task.id}`)).status).toBe(204);
    const refused = await api.request<ErrorBody>('PATCH', `/api/tasks/${task.id}`, { state: 'done' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('archived');

    const unarchived = await api.request<{ archived_at: string | null }>('POST', `/api/tasks/${task.id}/unarchive`, {});
    expect(unarchived).toMatchObject({ status: 200, body: { id: task.id, archived_at: null } });
    const listed = await api.request<{ tasks: { id: string }[] }>('GET', `/api/tasks?workspace_id=${workspaceId}`);
    expect(listed.body.tasks.map((t) => t.id)).toEqual([task.id]);
    expect((await api.request('PATCH', `/api/tasks/${task.id}`, { state: 'done' })).status).toBe(200);
    // Unarchiving a task that is not archived answers it unchanged, with no event.
    expect((await api.request('POST', `/api/tasks/${task.id}/unarchive`, {})).status).toBe(200);
    expect((await events(task.id, 'task.updated')).map((e) => e.data.change)).toEqual([
      { archived: { from: true, to: false } },
      { state: { from: 'todo', to: 'done' } },
    ]);
    expect((await api.request('POST', `/api/tasks/${task.id}/unarchive`, { force: true })).status).toBe(400);
    expect((await api.request('POST', '/api/tasks/unknown/unarchive', {})).status).toBe(404);
  });
});

describe('POST /api/sessions/:id/relaunch', () => {
  const cleanup = useCleanup();

  test('an ended session is relaunched as a new session of its task; a live one is refused', async () => {
    const { api, workspaceId } = await serve(cleanup);
    const task = await api.task(workspaceId, { title: 't' });
    const first = await api.launch(task.id, { owns_task_title: true });
    const live = await api.request<ErrorBody>('POST', `/api/sessions/${first.session_id}/relaunch`, {});
    expect(live.status).toBe(409);
    expect(live.body.error.message).toContain('relaunch an ended session');

    expect((await api.request('POST', `/api/sessions/${first.session_id}/stop`, {})).status).toBe(200);
    const relaunched = await api.request<{
      session_id: string;
      relaunched_from: string;
      mcp_token: string;
      launch_config: { task_id: string; owns_task_title: boolean };
    }>('POST', `/api/sessions/${first.session_id}/relaunch`, {});
    expect(relaunched.status).toBe(201);
    expect(relaunched.body).toMatchObject({
      relaunched_from: first.session_id,
      launch_config: { task_id: task.id, owns_task_title: true },
    });
    expect(relaunched.body.session_id).not.toBe(first.session_id);
    const second = await api.request<{ state: string; executor: string }>(
      'GET',
      `/api/sessions/${relaunched.body.session_id}`,
    );
    expect(second.body).toMatchObject({ state: 'waiting_for_input', executor: 'local' });
    expect((await api.request('GET', `/api/sessions/${first.session_id}`)).body).toMatchObject({ state: 'cancelled' });

    // The task has a live session now: relaunching the ended one again is refused, naming it.
    const busy = await api.request<ErrorBody>('POST', `/api/sessions/${first.session_id}/relaunch`, {});
    expect(busy.status).toBe(409);
    expect(busy.body.error.details).toEqual({ session_id: relaunched.body.session_id, state: 'waiting_for_input' });

    // Archived: archiving stops the live session; the launch refuses the archived task.
    expect((await api.request('DELETE', `/api/tasks/${task.id}`)).status).toBe(204);
    const archived = await api.request<ErrorBody>('POST', `/api/sessions/${first.session_id}/relaunch`, {});
    expect(archived.status).toBe(409);
    expect(archived.body.error.message).toContain('archived');
    const sessions = await api.request<{ sessions: unknown[] }>('GET', `/api/tasks/${task.id}/sessions`);
    expect(sessions.body.sessions).toHaveLength(2);

    expect((await api.request('POST', '/api/sessions/unknown/relaunch', {})).status).toBe(404);
    expect((await api.request('POST', `/api/sessions/${first.session_id}/relaunch`, { executor: 'x' })).status).toBe(
      400,
    );
  });
});

describe('DELETE /api/sessions/:id/prompts/:prompt_id', () => {
  const cleanup = useCleanup();

  test('a queued prompt is cancelled (queue.changed); a delivered one is a 409; lists say which', async () => {
    const { api, workspaceId, stores, events } = await serve(cleanup);
    const task = await api.task(workspaceId, { title: 't' });
    // A failed session takes prompts (they drain after a resume) but runs none: they stay queued.
    await stores.sessions.insert(
      sessionRow(launchConfigFor({ id: 's1', taskId: task.id, workspaceId }), { at: AT, state: 'failed' }),
    );
    await stores.sessions.insert(
      sessionRow(launchConfigFor({ id: 's2', taskId: task.id, workspaceId }), { at: AT, state: 'failed' }),
    );
    const one = (await api.queuePrompt('s1', 'first')).body.queued_prompt_id;
    const two = (await api.queuePrompt('s1', 'second')).body.queued_prompt_id;
    const three = (await api.queuePrompt('s1', 'third')).body.queued_prompt_id;
    const other = (await api.queuePrompt('s2', 'elsewhere')).body.queued_prompt_id;
    expect(await stores.promptQueue.claim(three, 's1', AT)).toBe(true);

    const cancelled = await api.request<PromptItemBody>('DELETE', `/api/sessions/s1/prompts/${one}`);
    expect(cancelled).toMatchObject({ status: 200, body: { id: one, status: 'cancelled', delivered: false } });
    const changed = await events(task.id, 'queue.changed');
    expect(changed[changed.length - 1]?.data).toEqual({ depth: 2, prompt_id: one, status: 'cancelled' });
    expect((await api.request('DELETE', `/api/sessions/s1/prompts/${one}`)).body).toMatchObject({
      status: 'cancelled',
    });

    const delivered = await api.request<ErrorBody>('DELETE', `/api/sessions/s1/prompts/${three}`);
    expect(delivered.status).toBe(409);
    expect(delivered.body.error.details).toEqual({ prompt_id: three, status: 'dispatched' });
    expect((await api.request('DELETE', `/api/sessions/s1/prompts/${other}`)).status).toBe(404);
    expect((await api.request('DELETE', '/api/sessions/s1/prompts/unknown')).status).toBe(404);
    expect((await api.request('DELETE', `/api/sessions/unknown/prompts/${one}`)).status).toBe(404);

    expect((await api.prompts('s1')).map((p) => [p.id, p.status, p.delivered])).toEqual([
      [one, 'cancelled', false],
      [two, 'queued', false],
      [three, 'dispatched', true],
    ]);
  });
});

describe('session failure fields', () => {
  const cleanup = useCleanup();

  test('views carry last_error, refresh_error, exit_reason and health; lists filter failed', async () => {
    const { api, agentctl, workspaceId, stores } = await serve(cleanup);
    const task = await api.task(workspaceId, { title: 't' });
    const launched = await api.launch(task.id);
    await stores.sessions.insert(
      sessionRow(launchConfigFor({ id: 'broken', taskId: task.id, workspaceId }), {
        at: AT,
        state: 'failed',
        lastError: 'agent exited with code 1',
      }),
    );
    const live = await api.request<{ health: string; exit_reason: string | null }>(
      'GET',
      `/api/sessions/${launched.session_id}`,
    );
    expect(live.body).toMatchObject({ health: 'ok', exit_reason: null });
    expect((await api.request('GET', '/api/sessions/broken')).body).toMatchObject({
      health: 'failed',
      last_error: 'agent exited with code 1',
    });
    // agentctl unreachable while the backend holds the session live: stuck.
    agentctl.failure = new Error('connection refused');
    expect((await api.request('GET', `/api/sessions/${launched.session_id}`)).body).toMatchObject({ health: 'stuck' });
    agentctl.failure = undefined;

    type Summary = { id: string; health: string; last_error: string | null; refresh_error: string | null };
    const failed = await api.request<{ sessions: Summary[] }>('GET', '/api/sessions?failed=true');
    expect(failed.body.sessions).toEqual([
      expect.objectContaining({ id: 'broken', health: 'failed', last_error: 'agent exited with code 1' }),
    ]);
    const rest = await api.request<{ sessions: Summary[] }>('GET', '/api/sessions?failed=false');
    expect(rest.body.sessions.map((s) => s.id)).toEqual([launched.session_id]);
    const both = await api.request<{ sessions: Summary[] }>('GET', '/api/sessions?state=failed,waiting_for_input');
    expect(both.body.sessions).toHaveLength(2);
  });
});

describe('POST /api/sessions/:id/cancel', () => {
  const cleanup = useCleanup();

  test('an MCP-only session runs no turns: 200 cancelled false without asking agentctl; ended is a 409', async () => {
    const { api, agentctl, workspaceId } = await serve(cleanup);
    const task = await api.task(workspaceId, { title: 't' });
    const { session_id: id } = await api.launch(task.id);
    expect(await api.cancelTurn(id)).toEqual({ status: 200, body: { cancelled: false, prompt_id: null } });
    expect(agentctl.calls.filter((call) => call.startsWith('CancelTurn'))).toEqual([]);
    // The same answer while agentctl is down: there is nothing of the session's for it to cancel.
    agentctl.failure = new Error('agentctl is down');
    expect(await api.cancelTurn(id)).toEqual({ status: 200, body: { cancelled: false, prompt_id: null } });
    agentctl.failure = undefined;

    expect((await api.request('POST', `/api/sessions/${id}/stop`, {})).status).toBe(200);
    const ended = await api.request<ErrorBody>('POST', `/api/sessions/${id}/cancel`, {});
    expect([ended.status, ended.body.error.code]).toEqual([409, 'failed_precondition']);
    expect(ended.body.error.message).toBe(`session ${id} is cancelled; no turn runs`);
  });
});
