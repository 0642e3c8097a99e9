// GET /api/repositories (cursor pages, workspace filter) and GET /api/sessions/:id/tools (the served
// list with the catalogue's descriptions and JSON Schemas) over the backend's real routers on a loopback
// port: services in process over real SQLite, a fake agentctl for what agentctl reports.
import {
  type LaunchConfig,
  type RuntimeSessionState,
  selectTools,
  sha256Hex,
  toolContextFromConfig,
} from '@kandev/protocol';
import {
  createApp,
  createInProcessBackend,
  FakeAgentctl,
  fakeAgentctlPort,
  launchConfigFor,
  listen,
  sessionRow,
} from '@kandev/backend/testing';
import { BackendApi } from '../../helpers/backend-api';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';

const AT = '2026-12-01T10:00:00.000Z';

/** The fake agentctl, serving the names a test gives instead of none. */
class ServingAgentctl extends FakeAgentctl {
  served: string[] = [];
  override async getSession(sessionId: string): Promise<RuntimeSessionState> {
    const state = await super.getSession(sessionId);
    return { ...state, toolNames: [...this.served] };
  }
}

async function serve(cleanup: Cleanup, agentctl?: ServingAgentctl) {
  const env = await createInProcessBackend(cleanup, { agentctl: fakeAgentctlPort(agentctl) });
  const server = await listen(createApp(env.logger, env.backend.routers), '127.0.0.1', 0);
  cleanup.defer(() => server.close());
  return { env, api: new BackendApi(`http://127.0.0.1:${server.port}`) };
}

interface ToolsBody {
  session_id: string;
  revision: number;
  applied_revision: number;
  providers: string[];
  question_capability: string;
  tools_from: string;
  tools: { name: string; description: string; input_schema: { type?: string; additionalProperties?: boolean } }[];
  agentctl: { reachable: boolean };
}

describe('GET /api/repositories', () => {
  const cleanup = useCleanup();

  test('pages through every repository once, oldest first, and filters by workspace', async () => {
    const { api } = await serve(cleanup);
    const [one, two] = [await api.workspace('one'), await api.workspace('two')];
    const rows: { id: string; created_at: string; workspace_id: string }[] = [];
    for (const [index, workspace] of [one, two, one, one, two].entries()) {
      const path = `/api/repositories`;
      const body = { workspace_id: workspace, remote_url: `https://github.com/acme/r${index}.git` };
      rows.push((await api.request<(typeof rows)[number]>('POST', path, body)).body);
    }
    // Creation order is (created_at, id): two made in the same millisecond are ordered by id.
    rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
    const created = rows.map((row) => row.id);
    const inOne = rows.filter((row) => row.workspace_id === one).map((row) => row.id);
    const ids = async (query: string) => {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const path: string = `/api/repositories?limit=2${query}${cursor === null ? '' : `&cursor=${cursor}`}`;
        const page = await api.request<{ repositories: { id: string }[]; next_cursor: string | null }>('GET', path);
        expect(page.status).toBe(200);
        seen.push(...page.body.repositories.map((repository) => repository.id));
        cursor = page.body.next_cursor;
      } while (cursor !== null);
      return seen;
    };
    expect(await ids('')).toEqual(created);
    expect(await ids(`&workspace_id=${one}`)).toEqual(inOne);
    expect(await ids('&workspace_id=nope')).toEqual([]);
    const first = await api.request<{ repositories: Record<string, unknown>[] }>('GET', '/api/repositories?limit=1');
    expect(first.body.repositories[0]).toMatchObject({ id: created[0], provider: 'github' });
  });

  test.each([['limit=0'], ['cursor=bad'], ['workspace='], ['workspace_id=']])('?%s is 400', async (query) => {
    const { api } = await serve(cleanup);
    const response = await api.request<{ error: { message: string } }>('GET', `/api/repositories?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.message.length).toBeGreaterThan(0);
  });
});

describe('GET /api/sessions/:id/tools', () => {
  const cleanup = useCleanup();

  async function seeded(agentctl?: ServingAgentctl, overrides: Partial<LaunchConfig> = {}) {
    const { env, api } = await serve(cleanup, agentctl);
    const workspaceId = await api.workspace();
    const taskId = (await api.task(workspaceId, { title: 't' })).id;
    const config = launchConfigFor({ id: 's1', taskId, workspaceId }, overrides);
    await env.backend.uow.read.sessions.insert(sessionRow(config, { at: AT, revision: 2, appliedRevision: 1 }));
    if (agentctl !== undefined) await agentctl.restoreSession(config, sha256Hex(config.mcpToken));
    return { api, config };
  }

  test('lists what agentctl serves, in catalogue order, with descriptions and strict input schemas', async () => {
    const agentctl = new ServingAgentctl();
    const { api, config } = await seeded(agentctl, { providers: ['github'] });
    const selected = selectTools(toolContextFromConfig(config)).map((tool) => tool.name);
    agentctl.served = [...selected].reverse().concat('future_tool_kandev');
    const response = await api.request<ToolsBody>('GET', '/api/sessions/s1/tools');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      session_id: 's1',
      revision: 2,
      applied_revision: 1,
      providers: ['github'],
      question_capability: 'user',
      tools_from: 'agentctl',
      agentctl: { reachable: true },
    });
    expect(response.body.tools.map((tool) => tool.name)).toEqual([...selected, 'future_tool_kandev']);
    for (const tool of response.body.tools.slice(0, -1)) {
      expect(tool.description.length).toBeGreaterThan(20);
      expect(tool.input_schema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.input_schema).not.toHaveProperty('$schema');
    }
    expect(response.body.tools.at(-1)).toEqual({ name: 'future_tool_kandev', description: '', input_schema: {} });
  });

  test('without agentctl: the list the stored config selects, and says so', async () => {
    const { api, config } = await seeded(undefined, { questionCapability: 'none' });
    const response = await api.request<ToolsBody>('GET', '/api/sessions/s1/tools');
    expect(response.status).toBe(200);
    expect(response.body.tools_from).toBe('launch_config');
    expect(response.body.agentctl.reachable).toBe(false);
    expect(response.body.tools.map((tool) => tool.name)).toEqual(
      selectTools(toolContextFromConfig(config)).map((tool) => tool.name),
    );
  });

  test('an unknown session is 404', async () => {
    const { api } = await serve(cleanup);
    const response = await api.request<{ error: { code: string } }>('GET', '/api/sessions/nope/tools');
    expect(response.status).toBe(404);
  });
});
