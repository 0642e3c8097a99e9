// The configuration surface tools in process (fresh SQLite per test): what a configuration session
// may list is its own task's workspace; agent profiles are global and say whether they support MCP.
import { useCleanup } from '../../helpers/cleanup';
import { createToolHarness, expectRefusedUnchanged, type ToolHarness } from '@kandev/backend/testing';

const AT = '2026-11-30T10:00:00.000Z';

async function setup(h: ToolHarness): Promise<void> {
  await h.workspace('w');
  await h.workspace('w2');
  await h.task('setup');
  await h.task('elsewhere', { workspaceId: 'w2' });
  await h.session('s-config', 'setup', { surface: 'configuration' });
  await h.session('s-kanban', 'setup');
  const repository = {
    sourceType: 'remote' as const,
    providerHost: null,
    owner: 'acme',
    localPath: null,
    createdAt: AT,
  };
  await h.uow.read.repositories.insert({
    ...repository,
    id: 'r-api',
    workspaceId: 'w',
    provider: 'github',
    name: 'api',
    remoteUrl: 'https://github.com/acme/api',
    identityKey: 'github.com/acme/api',
  });
  await h.uow.read.repositories.insert({
    ...repository,
    id: 'r-other',
    workspaceId: 'w2',
    provider: 'gitlab',
    name: 'web',
    remoteUrl: 'https://gitlab.com/acme/web',
    identityKey: 'gitlab.com/acme/web',
  });
  const profile = { command: 'agent', args: ['--secret-flag'], createdAt: AT };
  await h.uow.read.agentProfiles.insert({ ...profile, id: 'p-mcp', name: 'Claude', supportsMcp: true });
  await h.uow.read.agentProfiles.insert({ ...profile, id: 'p-plain', name: 'Aider', supportsMcp: false });
}

describe('configuration tools', () => {
  const cleanup = useCleanup();

  test('list_workspaces: the session task workspace only', async () => {
    const h = await createToolHarness(cleanup);
    await setup(h);
    const listed = await h.call('s-config', 'list_workspaces_kandev', {});
    expect(listed.structured).toEqual({
      workspaces: [{ id: 'w', name: 'workspace w', created_at: expect.any(String) }],
    });
    await expectRefusedUnchanged(
      h,
      () => h.call('s-config', 'list_workspaces_kandev', { all: true }),
      'invalid_argument',
    );
  });

  test('list_repositories: the own workspace (default or named), never another', async () => {
    const h = await createToolHarness(cleanup);
    await setup(h);
    const own = await h.call('s-config', 'list_repositories_kandev', {});
    expect(own.structured).toMatchObject({ workspace_id: 'w', repositories: [{ id: 'r-api', provider: 'github' }] });
    expect(own.text).toContain('r-api api (github) https://github.com/acme/api');
    const named = await h.call('s-config', 'list_repositories_kandev', { workspace_id: 'w' });
    expect(named.structured).toEqual(own.structured);
    await expectRefusedUnchanged(
      h,
      () => h.call('s-config', 'list_repositories_kandev', { workspace_id: 'w2' }),
      'permission_denied',
    );
    await expectRefusedUnchanged(
      h,
      () => h.call('s-config', 'list_repositories_kandev', { workspace_id: '' }),
      'invalid_argument',
    );
  });

  test('list_agent_profiles: every profile with supports_mcp, never its arguments', async () => {
    const h = await createToolHarness(cleanup);
    await setup(h);
    const listed = await h.call('s-config', 'list_agent_profiles_kandev', {});
    expect(listed.structured).toEqual({
      agent_profiles: [
        { id: 'p-plain', name: 'Aider', command: 'agent', supports_mcp: false },
        { id: 'p-mcp', name: 'Claude', command: 'agent', supports_mcp: true },
      ],
    });
    expect(listed.text).toContain('not for autopilot');
    expect(JSON.stringify(listed)).not.toContain('--secret-flag');
    await expectRefusedUnchanged(
      h,
      () => h.call('s-config', 'list_agent_profiles_kandev', { x: 1 }),
      'invalid_argument',
    );
  });

  test('only on the configuration surface: a kanban session is refused', async () => {
    const h = await createToolHarness(cleanup);
    await setup(h);
    for (const tool of ['list_workspaces_kandev', 'list_repositories_kandev', 'list_agent_profiles_kandev']) {
      await expectRefusedUnchanged(h, () => h.call('s-kanban', tool, {}), 'permission_denied');
    }
  });
});
