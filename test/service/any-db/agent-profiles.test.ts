// Agent profiles over REST (in-process app on a fresh SQLite file): CRUD, strict bodies, and the
// autopilot rule on POST /api/tasks (a profile without MCP support cannot run an autopilot task).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createApp, createInProcessBackend, listen } from '@kandev/backend/testing';
import { type ApiResponse, BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';

type Json = Record<string, unknown>;
const EXAMPLES_DIR = join(__dirname, '..', '..', '..', 'docs', 'agent-profiles');

function expectError(response: ApiResponse<unknown>, status: number, code: string): string {
  const body = response.body as { error?: { code?: string; message?: string } };
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code });
  return body.error?.message ?? '';
}

describe('backend REST: agent profiles', () => {
  const cleanup = useCleanup();

  async function setup() {
    const { db, logger, backend } = await createInProcessBackend(cleanup);
    const app = createApp(logger, backend.routers);
    const server = await listen(app, '127.0.0.1', 0);
    cleanup.defer(() => server.close());
    const api = new BackendApi(`http://127.0.0.1:${server.port}`);
    const countTasks = async () => Number((await db('tasks').count<{ n: number }[]>({ n: '*' }))[0]?.n);
    const command = (id: string) => backend.uow.read.agentProfiles.findCommand(id);
    return { api, workspaceId: await api.workspace('main'), countTasks, command, db };
  }

  const plain = { name: 'Plain', command: 'plain-agent', supports_mcp: false };
  const mcp = { name: 'MCP', command: 'mcp-agent', args: ['--acp'], env: { API_KEY: 's3cret' }, supports_mcp: true };

  test('create, list, get and delete; env values are never returned', async () => {
    const { api } = await setup();
    const created = await api.create<Json>('/api/agent-profiles', mcp);
    expect(created).toEqual({
      id: expect.any(String),
      name: 'MCP',
      command: 'mcp-agent',
      args: ['--acp'],
      env_keys: ['API_KEY'],
      supports_mcp: true,
      permission_policy: 'ask',
      created_at: expect.any(String),
    });
    const other = await api.create<Json>('/api/agent-profiles', plain);
    expect(other).toMatchObject({ args: [], env_keys: [], supports_mcp: false });
    const list = await api.request<{ agent_profiles: Json[] }>('GET', '/api/agent-profiles');
    expect(list.status).toBe(200);
    expect(list.body.agent_profiles.map((p) => p.name)).toEqual(['MCP', 'Plain']);
    expect(JSON.stringify(list.body)).not.toContain('s3cret');
    const got = await api.request<Json>('GET', `/api/agent-profiles/${String(created.id)}`);
    expect(got).toEqual({ status: 200, body: created });
    const deleted = await api.request('DELETE', `/api/agent-profiles/${String(created.id)}`);
    expect(deleted.status).toBe(204);
    expectError(await api.request('GET', `/api/agent-profiles/${String(created.id)}`), 404, 'not_found');
    expectError(await api.request('DELETE', `/api/agent-profiles/${String(created.id)}`), 404, 'not_found');
  });

  test('permission_policy: set on create, changed by PATCH; a bad policy or another field is 400 and changes nothing', async () => {
    const { api } = await setup();
    const denied = await api.create<Json>('/api/agent-profiles', { ...plain, permission_policy: 'deny_all' });
    expect(denied).toMatchObject({ permission_policy: 'deny_all' });
    expectError(
      await api.request('POST', '/api/agent-profiles', { ...mcp, permission_policy: 'maybe' }),
      400,
      'invalid_argument',
    );
    const path = `/api/agent-profiles/${String(denied.id)}`;
    const patched = await api.request<Json>('PATCH', path, { permission_policy: 'allow_all' });
    expect(patched).toEqual({ status: 200, body: { ...denied, permission_policy: 'allow_all' } });
    expectError(await api.request('PATCH', path, { permission_policy: 'everything' }), 400, 'invalid_argument');
    expectError(await api.request('PATCH', path, { permission_policy: 'ask', model: 'x' }), 400, 'invalid_argument');
    expectError(await api.request('PATCH', path, {}), 400, 'invalid_argument');
    expectError(
      await api.request('PATCH', '/api/agent-profiles/ghost', { permission_policy: 'ask' }),
      404,
      'not_found',
    );
    expect((await api.request<Json>('GET', path)).body).toEqual({ ...denied, permission_policy: 'allow_all' });
  });

  test('PATCH edits any field; env is a write-only merge patch, sealed at rest; refusals change nothing', async () => {
    const { api, workspaceId, command, db } = await setup();
    const created = await api.create<Json>('/api/agent-profiles', { ...mcp, env: { API_KEY: 's3cret', KEEP: 'kept' } });
    await api.create('/api/agent-profiles', plain);
    const path = `/api/agent-profiles/${String(created.id)}`;
    const edited = await api.request<Json>('PATCH', path, {
      name: 'Renamed',
      command: 'other-agent',
      args: ['--fast'],
      env: { API_KEY: 'n3w-secret', KEEP: undefined, GONE: null, ADDED: 'v' },
    });
    expect(edited).toEqual({
      status: 200,
      body: {
        ...created,
        name: 'Renamed',
        command: 'other-agent',
        args: ['--fast'],
        env_keys: ['ADDED', 'API_KEY', 'KEEP'],
      },
    });
    expect(JSON.stringify(edited.body)).not.toContain('n3w-secret');
    expect((await command(String(created.id)))?.env).toEqual({ API_KEY: 'n3w-secret', KEEP: 'kept', ADDED: 'v' });
    const stored = JSON.stringify(await db('agent_profiles').where({ id: created.id }).first('env'));
    expect(stored).not.toContain('n3w-secret');
    const removed = await api.request<Json>('PATCH', path, { env: { API_KEY: null } });
    expect(removed.body).toMatchObject({ env_keys: ['ADDED', 'KEEP'] });

    // Refused, nothing changed: a taken name, no field, supports_mcp off under an autopilot task.
    expectError(await api.request('PATCH', path, { name: 'Plain', command: 'x' }), 409, 'already_exists');
    expectError(await api.request('PATCH', path, {}), 400, 'invalid_argument');
    expectError(await api.request('PATCH', path, { env: { 'bad-key': 'v' } }), 400, 'invalid_argument');
    await api.task(workspaceId, { title: 'pilot', autopilot: true, agent_profile_id: created.id });
    expectError(await api.request('PATCH', path, { supports_mcp: false, name: 'Off' }), 409, 'failed_precondition');
    expect((await api.request<Json>('GET', path)).body).toEqual({ ...removed.body });
  });

  test('strict bodies: duplicate name 409, unknown field 400, bad env key 400, missing fields 400', async () => {
    const { api } = await setup();
    await api.create('/api/agent-profiles', plain);
    expectError(await api.request('POST', '/api/agent-profiles', { ...plain, command: 'x' }), 409, 'already_exists');
    expectError(await api.request('POST', '/api/agent-profiles', { ...mcp, model: 'big' }), 400, 'invalid_argument');
    for (const key of ['lower', '1ABC', 'A-B', '']) {
      const message = expectError(
        await api.request('POST', '/api/agent-profiles', { ...mcp, env: { [key]: 'v' } }),
        400,
        'invalid_argument',
      );
      expect(message).not.toContain('s3cret');
    }
    expectError(await api.request('POST', '/api/agent-profiles', { ...mcp, env: { OK: 1 } }), 400, 'invalid_argument');
    expectError(await api.request('POST', '/api/agent-profiles', { name: 'n', command: 'c' }), 400, 'invalid_argument');
    expectError(
      await api.request('POST', '/api/agent-profiles', { ...mcp, name: 'two\nlines' }),
      400,
      'invalid_argument',
    );
    const list = await api.request<{ agent_profiles: Json[] }>('GET', '/api/agent-profiles');
    expect(list.body.agent_profiles.map((p) => p.name)).toEqual(['Plain']);
  });

  test('tasks: unknown profile 404; autopilot needs an MCP profile (400, nothing written); used profile stays', async () => {
    const { api, workspaceId, countTasks } = await setup();
    const noMcp = await api.create<{ id: string }>('/api/agent-profiles', plain);
    const withMcp = await api.create<{ id: string }>('/api/agent-profiles', mcp);
    const task = (fields: Json) =>
      api.request<Json>('POST', '/api/tasks', { workspace_id: workspaceId, title: 't', ...fields });

    expectError(await task({ agent_profile_id: 'ghost' }), 404, 'not_found');
    const refused = expectError(await task({ autopilot: true, agent_profile_id: noMcp.id }), 400, 'invalid_argument');
    expect(refused).toMatch(/cannot receive the MCP tool set/);
    expect(await countTasks()).toBe(0);

    const pilot = await task({ autopilot: true, agent_profile_id: withMcp.id });
    expect(pilot.status).toBe(201);
    expect(pilot.body).toMatchObject({ autopilot: true });
    expect((await task({ agent_profile_id: noMcp.id })).status).toBe(201);
    expect(await countTasks()).toBe(2);

    for (const id of [noMcp.id, withMcp.id]) {
      expectError(await api.request('DELETE', `/api/agent-profiles/${id}`), 409, 'failed_precondition');
      expect((await api.request('GET', `/api/agent-profiles/${id}`)).status).toBe(200);
    }
  });

  test('every example in docs/agent-profiles posts as-is', async () => {
    const { api } = await setup();
    const files = (await readdir(EXAMPLES_DIR)).filter((file) => file.endsWith('.json')).sort();
    expect(files).toEqual(['claude-agent-acp.json', 'codex-acp.json', 'gemini-cli.json', 'scripted-test-agent.json']);
    for (const file of files) {
      const body: unknown = JSON.parse(await readFile(join(EXAMPLES_DIR, file), 'utf8'));
      const response = await api.request<Json>('POST', '/api/agent-profiles', body);
      expect({ file, status: response.status }).toEqual({ file, status: 201 });
    }
    const list = await api.request<{ agent_profiles: Json[] }>('GET', '/api/agent-profiles');
    expect(list.body.agent_profiles).toHaveLength(files.length);
  });
});
