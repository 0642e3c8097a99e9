import { type LaunchConfig, sha256Hex } from '@kandev/protocol';
import { FakeAgentLauncher } from '../testing/fake-session-agent';
import { FakeConnection } from '../testing/fake-connection';
import { launchConfig, MCP_TOKEN_A, MCP_TOKEN_B } from '../testing/launch-config-fixture';
import { silentLogger } from '../testing/silent-logger';
import { ToolSetCache } from '../tools/tool-set-cache';
import { SessionRegistry } from './session-registry';

const PR_TOOLS = ['get_task_pr_automation_kandev', 'update_task_pr_automation_kandev'];
const MR_TOOLS = ['get_task_mr_automation_kandev', 'update_task_mr_automation_kandev'];

function setup() {
  let tick = 0;
  const agents = new FakeAgentLauncher();
  const registry = new SessionRegistry({
    toolSets: new ToolSetCache(),
    agents,
    log: silentLogger,
    now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)),
  });
  return { registry, agents };
}

async function withConnections(registry: SessionRegistry, config: LaunchConfig, count: number) {
  await registry.create(config);
  const session = registry.find(config.sessionId);
  if (session === undefined) throw new Error('session not created');
  const connections = Array.from({ length: count }, (_, i) => new FakeConnection(`conn-${i}`));
  connections.forEach((connection) => session.addConnection(connection));
  return connections;
}

describe('SessionRegistry.create', () => {
  test('registers the session with its tools, token blanked and only its hash kept', async () => {
    const { registry } = setup();
    const state = await registry.create(launchConfig({ providers: ['github'] }));
    expect(state.config.mcpToken).toBe('');
    expect(state.toolNames).toEqual(expect.arrayContaining(PR_TOOLS));
    expect(state.toolNames).toEqual([...state.toolNames].sort());
    expect(state).toMatchObject({ connectionCount: 0, mcpPath: '/sessions/session-1/mcp' });
    expect(JSON.stringify(registry.list())).not.toContain(MCP_TOKEN_A);
    expect(registry.find('session-1')?.acceptsToken(MCP_TOKEN_A)).toBe(true);
  });

  test('same revision and content is idempotent: nothing changes, not even updated_at', async () => {
    const { registry } = setup();
    const first = await registry.create(launchConfig());
    expect(await registry.create(launchConfig())).toEqual(first);
    expect(registry.list()).toHaveLength(1);
  });

  test('after an update, a replay of the updated config is idempotent (its content is read anew)', async () => {
    const { registry } = setup();
    await registry.create(launchConfig({ providers: ['github'] }));
    await registry.create(launchConfig({ providers: ['github'] })); // compares (and reads) the content
    await registry.updateProviders({ sessionId: 'session-1', providers: ['github', 'gitlab'], revision: 2 });
    const updated = launchConfig({ providers: ['github', 'gitlab'], revision: 2 });
    expect((await registry.create(updated)).config).toMatchObject({ providers: ['github', 'gitlab'], revision: 2 });
    await expect(registry.create(launchConfig({ revision: 2 }))).rejects.toMatchObject({ code: 'failed_precondition' });
  });

  test('same revision with other content (including another token) is refused', async () => {
    const { registry } = setup();
    const first = await registry.create(launchConfig());
    for (const other of [{ providers: ['gitlab' as const] }, { mcpToken: MCP_TOKEN_B }, { systemPrompt: 'x' }]) {
      await expect(registry.create(launchConfig(other))).rejects.toMatchObject({ code: 'failed_precondition' });
    }
    expect(registry.get('session-1')).toEqual(first);
  });

  test('a lower revision is refused and changes nothing', async () => {
    const { registry } = setup();
    const current = await registry.create(launchConfig({ revision: 4 }));
    await expect(registry.create(launchConfig({ revision: 3, providers: ['github'] }))).rejects.toMatchObject({
      code: 'failed_precondition',
    });
    expect(registry.get('session-1')).toEqual(current);
  });

  test('a higher revision (resume) replaces the config; same token keeps connections and notifies once', async () => {
    const { registry } = setup();
    const connections = await withConnections(registry, launchConfig(), 2);
    const state = await registry.create(launchConfig({ revision: 2, providers: ['gitlab'], ownsTaskTitle: true }));
    expect(state.toolNames).toEqual(expect.arrayContaining([...MR_TOOLS, 'set_task_title_kandev']));
    expect(state.connectionCount).toBe(2);
    expect(connections.map((c) => [c.listChanged, c.closed])).toEqual([
      [1, 0],
      [1, 0],
    ]);
  });

  test('a higher revision with a new token closes the old connections', async () => {
    const { registry } = setup();
    const connections = await withConnections(registry, launchConfig(), 2);
    const state = await registry.create(launchConfig({ revision: 2, mcpToken: MCP_TOKEN_B }));
    expect(state.connectionCount).toBe(0);
    expect(connections.map((c) => c.closed)).toEqual([1, 1]);
    expect(registry.find('session-1')?.acceptsToken(MCP_TOKEN_A)).toBe(false);
    expect(registry.find('session-1')?.acceptsToken(MCP_TOKEN_B)).toBe(true);
  });
});

describe('SessionRegistry.updateProviders', () => {
  test('applied: providers replaced, everything else kept, one list_changed per connection', async () => {
    const { registry } = setup();
    const connections = await withConnections(registry, launchConfig({ questionCapability: 'parent' }), 3);
    const result = await registry.updateProviders({ sessionId: 'session-1', providers: ['gitlab'], revision: 2 });
    expect(result).toMatchObject({ outcome: 'applied', toolsChanged: true });
    expect(result.session.config).toMatchObject({ providers: ['gitlab'], revision: 2, questionCapability: 'parent' });
    expect(result.session.toolNames).toEqual(expect.arrayContaining([...MR_TOOLS, 'ask_parent_question_kandev']));
    expect(connections.map((c) => c.listChanged)).toEqual([1, 1, 1]);
  });

  test('applied without an effective change (office surface gains a provider): no notification', async () => {
    const { registry } = setup();
    const connections = await withConnections(registry, launchConfig({ surface: 'office_task' }), 2);
    const before = registry.get('session-1').toolNames;
    const result = await registry.updateProviders({ sessionId: 'session-1', providers: ['github'], revision: 2 });
    expect(result).toMatchObject({ outcome: 'applied', toolsChanged: false });
    expect(result.session.toolNames).toEqual(before);
    expect(result.session.config.revision).toBe(2);
    expect(connections.map((c) => c.listChanged)).toEqual([0, 0]);
  });

  test('applied with an equal set at a higher revision: no notification', async () => {
    const { registry } = setup();
    const connections = await withConnections(registry, launchConfig({ providers: ['github'] }), 1);
    const result = await registry.updateProviders({ sessionId: 'session-1', providers: ['github'], revision: 2 });
    expect(result).toMatchObject({ outcome: 'applied', toolsChanged: false });
    expect(connections[0]?.listChanged).toBe(0);
  });

  test('unchanged: the same update replayed is an idempotent success with no notification', async () => {
    const { registry } = setup();
    const connections = await withConnections(registry, launchConfig(), 1);
    await registry.updateProviders({ sessionId: 'session-1', providers: ['github'], revision: 2 });
    const replay = await registry.updateProviders({ sessionId: 'session-1', providers: ['github'], revision: 2 });
    expect(replay).toMatchObject({ outcome: 'unchanged', toolsChanged: false });
    expect(connections[0]?.listChanged).toBe(1);
  });

  test('same revision with different providers: failed_precondition, nothing changed', async () => {
    const { registry } = setup();
    await registry.create(launchConfig({ revision: 2, providers: ['github'] }));
    const before = registry.get('session-1');
    await expect(
      registry.updateProviders({ sessionId: 'session-1', providers: ['gitlab'], revision: 2 }),
    ).rejects.toMatchObject({ code: 'failed_precondition' });
    expect(registry.get('session-1')).toEqual(before);
  });

  test('stale: a lower revision changes nothing and reports the current state', async () => {
    const { registry } = setup();
    const connections = await withConnections(registry, launchConfig({ revision: 5, providers: ['github'] }), 1);
    const before = registry.get('session-1');
    const result = await registry.updateProviders({ sessionId: 'session-1', providers: [], revision: 4 });
    expect(result).toEqual({ outcome: 'stale', toolsChanged: false, session: before });
    expect(connections[0]?.listChanged).toBe(0);
  });

  test('unknown session: not_found', async () => {
    const { registry } = setup();
    await expect(registry.updateProviders({ sessionId: 'nope', providers: [], revision: 1 })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

describe('SessionRegistry.stop and queries', () => {
  test('stop closes the connections and removes the session; a second stop reports false', async () => {
    const { registry } = setup();
    const connections = await withConnections(registry, launchConfig(), 2);
    expect(await registry.stop('session-1')).toBe(true);
    expect(connections.map((c) => c.closed)).toEqual([1, 1]);
    expect(registry.find('session-1')).toBeUndefined();
    expect(await registry.stop('session-1')).toBe(false);
    expect(() => registry.get('session-1')).toThrow(expect.objectContaining({ code: 'not_found' }) as Error);
  });

  test('list is sorted by session id and reports connection counts', async () => {
    const { registry } = setup();
    await registry.create(launchConfig({ sessionId: 'b' }));
    await withConnections(registry, launchConfig({ sessionId: 'a' }), 2);
    expect(registry.list().map((s) => [s.config.sessionId, s.connectionCount])).toEqual([
      ['a', 2],
      ['b', 0],
    ]);
  });

  test('page walks list() in id order: each page after the last id, `more` until the end', async () => {
    const { registry } = setup();
    for (const sessionId of ['c', 'a', 'd', 'b']) await registry.create(launchConfig({ sessionId }));
    const ids = (page: { sessions: { config: { sessionId: string } }[]; more: boolean }) => [
      page.sessions.map((s) => s.config.sessionId),
      page.more,
    ];
    expect(ids(registry.page('', 3))).toEqual([['a', 'b', 'c'], true]);
    expect(ids(registry.page('c', 3))).toEqual([['d'], false]);
    expect(ids(registry.page('b', 2))).toEqual([['c', 'd'], false]);
    expect(ids(registry.page('d', 2))).toEqual([[], false]);
    expect(ids(registry.page('', 0))).toEqual([['a', 'b', 'c', 'd'], false]);
  });

  test('closeAllConnections closes every connection and keeps the sessions', async () => {
    const { registry } = setup();
    const a = await withConnections(registry, launchConfig({ sessionId: 'a' }), 1);
    const b = await withConnections(registry, launchConfig({ sessionId: 'b' }), 2);
    await registry.closeAllConnections();
    expect([...a, ...b].map((c) => c.closed)).toEqual([1, 1, 1]);
    expect(registry.list().map((s) => s.connectionCount)).toEqual([0, 0]);
  });
});

describe('SessionRegistry.restore', () => {
  test('registers a lost MCP-only session from its stored config and token hash: the old token works', () => {
    const { registry } = setup();
    const stored = { ...launchConfig({ providers: ['github'], revision: 3 }), mcpToken: '' };
    const state = registry.restore({ config: stored, mcpTokenHash: sha256Hex(MCP_TOKEN_A) });
    expect(state.config).toMatchObject({ revision: 3, providers: ['github'], mcpToken: '' });
    expect(state.toolNames).toEqual(expect.arrayContaining(PR_TOOLS));
    expect(registry.find('session-1')?.acceptsToken(MCP_TOKEN_A)).toBe(true);
    expect(registry.find('session-1')?.acceptsToken(MCP_TOKEN_B)).toBe(false);
  });

  test('a session it holds is returned unchanged', async () => {
    const { registry } = setup();
    const held = await registry.create(launchConfig({ revision: 2 }));
    const stored = { ...launchConfig({ providers: ['gitlab'], revision: 5 }), mcpToken: '' };
    expect(registry.restore({ config: stored, mcpTokenHash: sha256Hex(MCP_TOKEN_B) })).toEqual(held);
    expect(registry.find('session-1')?.acceptsToken(MCP_TOKEN_A)).toBe(true);
  });
});
