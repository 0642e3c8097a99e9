// Tasks through the real built backend: immutable autopilot, hierarchy rules, provider union, atomic creation.
import { useCleanup } from '../../helpers/cleanup';
import { countRows, expectError, type Json, startRestBackend } from '../../helpers/rest-backend';

describe('backend REST: tasks', () => {
  const cleanup = useCleanup();

  const setup = () => startRestBackend(cleanup);

  test('tasks: autopilot defaults to false and is never inherited; providers are the union', async () => {
    const { api, workspaceId } = await setup();
    const gh = await api.repository(workspaceId, { remote_url: 'https://github.com/acme/api' });
    const gl = await api.repository(workspaceId, { remote_url: 'https://gitlab.com/acme/web' });
    const local = await api.repository(workspaceId, { local_path: '/srv/tool' });
    const parent = await api.request<Json>('POST', '/api/tasks', {
      workspace_id: workspaceId,
      title: 'p',
      autopilot: true,
    });
    expect(parent.status).toBe(201);
    expect(parent.body).toEqual({
      id: expect.any(String),
      workspace_id: workspaceId,
      parent_id: null,
      title: 'p',
      state: 'todo',
      autopilot: true,
      pending_action: null,
      repository_ids: [],
      providers: [],
      archived_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const child = await api.task(workspaceId, {
      title: 'c',
      parent_id: parent.body.id,
      repository_ids: [local.id, gl.id, gh.id, gl.id],
    });
    const stored = await api.request<Json>('GET', `/api/tasks/${child.id}`);
    expect(stored.body).toMatchObject({ parent_id: parent.body.id, autopilot: false, providers: ['github', 'gitlab'] });
    expect([...(stored.body.repository_ids as string[])].sort()).toEqual([gh.id, gl.id, local.id].sort());
  });

  test('tasks: PATCH with autopilot -> 400 and nothing changes; title and parent are updatable', async () => {
    const { api, workspaceId } = await setup();
    const task = await api.task(workspaceId, { title: 'original' });
    const before = await api.request<Json>('GET', `/api/tasks/${task.id}`);
    for (const body of [{ autopilot: true }, { autopilot: false, title: 'renamed' }]) {
      const response = await api.request('PATCH', `/api/tasks/${task.id}`, body);
      expect(expectError(response, 400, 'invalid_argument').error.message).toBe('autopilot is fixed at task creation');
    }
    expect((await api.request('GET', `/api/tasks/${task.id}`)).body).toEqual(before.body);

    const parent = await api.task(workspaceId, { title: 'parent' });
    const patched = await api.request<Json>('PATCH', `/api/tasks/${task.id}`, {
      title: 'renamed',
      parent_id: parent.id,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'renamed', parent_id: parent.id, autopilot: false });
    const unparented = await api.request<Json>('PATCH', `/api/tasks/${task.id}`, { parent_id: null });
    expect(unparented.body.parent_id).toBeNull();
  });

  test('tasks: reparenting rejects self, cycles, other workspaces and unknown parents', async () => {
    const { api, workspaceId } = await setup();
    const root = await api.task(workspaceId, { title: 'root' });
    const mid = await api.task(workspaceId, { title: 'mid', parent_id: root.id });
    const leaf = await api.task(workspaceId, { title: 'leaf', parent_id: mid.id });
    const foreign = await api.task(await api.workspace('other'), { title: 'foreign' });
    const patch = (id: string, parent_id: string) => api.request('PATCH', `/api/tasks/${id}`, { parent_id });

    expectError(await patch(root.id, root.id), 400, 'invalid_argument', /own parent/);
    expectError(await patch(root.id, leaf.id), 400, 'invalid_argument', /cycle/);
    expectError(await patch(mid.id, leaf.id), 400, 'invalid_argument', /cycle/);
    // Another workspace's task answers as an unknown one.
    expectError(await patch(leaf.id, foreign.id), 404, 'not_found', new RegExp(`parent task ${foreign.id}`));
    expectError(await patch(leaf.id, 'nope'), 404, 'not_found', /parent task nope/);
    expect((await api.request<Json>('GET', `/api/tasks/${root.id}`)).body.parent_id).toBeNull();
    expect((await api.request<Json>('GET', `/api/tasks/${leaf.id}`)).body.parent_id).toBe(mid.id);
  });

  test('tasks: a rejected creation writes nothing', async () => {
    const { backend, api, workspaceId } = await setup();
    const other = await api.workspace('other');
    const foreignRepo = await api.repository(other, { remote_url: 'https://github.com/acme/foreign' });
    const foreignTask = await api.task(other, { title: 'foreign' });
    const ownRepo = await api.repository(workspaceId, { remote_url: 'https://github.com/acme/own' });
    const tasksBefore = await countRows(backend.dataDir, 'tasks');
    const create = (fields: Json) =>
      api.request('POST', '/api/tasks', { workspace_id: workspaceId, title: 't', ...fields });

    // Another workspace's repository answers as an unknown one, naming only that id.
    const foreignAnswer = expectError(await create({ repository_ids: [ownRepo.id, foreignRepo.id] }), 404, 'not_found');
    expect(foreignAnswer.error.message).toBe(`repository not found: ${foreignRepo.id}`);
    expectError(await create({ repository_ids: [ownRepo.id, 'missing'] }), 404, 'not_found', /missing/);
    expectError(await create({ parent_id: foreignTask.id }), 404, 'not_found', /parent task/);
    expectError(await create({ parent_id: 'missing' }), 404, 'not_found');
    expectError(await create({ workspace_id: 'missing' }), 404, 'not_found');
    expect(await countRows(backend.dataDir, 'tasks')).toBe(tasksBefore);
    expect(await countRows(backend.dataDir, 'task_repositories')).toBe(0);
  });
});
