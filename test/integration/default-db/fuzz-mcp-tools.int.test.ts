// Fuzz of every tool's arguments through agentctl's MCP endpoint with the official SDK client, against
// a real backend and its agentctl. Properties: never an internal error (-32603) or a transport failure,
// the daemons stay up, and a refused call (a JSON-RPC error or an isError result) writes nothing.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { TOOL_CATALOGUE } from '@kandev/protocol';
import { BackendApi } from '../../helpers/backend-api';
import { Cleanup } from '../../helpers/cleanup';
import { type DatabaseDigest, databaseDigester } from '@kandev/backend/testing';
import { toolArguments } from '../../helpers/fuzz/tool-arbitraries';
import { connectMcp, type McpConnection } from '../../helpers/mcp';
import { isPidAlive, isRunning, startBackend } from '../../helpers/processes';

const SEED = 20261201;
const RUNS_PER_TOOL = 25;
/** JSON-RPC's "internal error": what a bug looks like from the client's side. */
const INTERNAL_ERROR = -32603;

interface World {
  /** The backend database's digest now (the testing entry's databaseDigester). */
  digest: () => Promise<DatabaseDigest>;
  liveIds: string[];
  /** One connection per session kind; together they serve every tool of the catalogue. */
  connections: McpConnection[];
  isUp: () => boolean;
}

const suite = new Cleanup();
let world: World;

beforeAll(async () => {
  // Valid questions would otherwise wait ten minutes for an answer nobody gives.
  const backend = await startBackend(suite, { KANDEV_QUESTION_TIMEOUT_MS: '200' });
  const api = new BackendApi(backend.ready.url, backend.apiToken);
  const workspaceId = await api.workspace('fuzz');
  const github = await api.repository(workspaceId, { remote_url: 'https://github.com/acme/api.git' });
  const gitlab = await api.repository(workspaceId, { remote_url: 'https://gitlab.com/acme/web.git' });
  const root = await api.task(workspaceId, { title: 'root', repository_ids: [github.id, gitlab.id] });
  const child = await api.task(workspaceId, { title: 'child', parent_id: root.id, autopilot: true });
  const launches = await Promise.all([
    api.launch(root.id, { surface: 'kanban_task', owns_task_title: true }),
    api.launch(child.id, { surface: 'kanban_task' }),
    api.launch(root.id, { surface: 'configuration' }),
    api.launch(root.id, { surface: 'office_task' }),
  ]);
  const connections = await Promise.all(launches.map((launch) => connectMcp(suite, launch.mcp_url, launch.mcp_token)));
  world = {
    digest: await databaseDigester(backend.dataDir, suite),
    liveIds: [workspaceId, github.id, gitlab.id, root.id, child.id, ...launches.map((launch) => launch.session_id)],
    connections,
    isUp: () => isRunning(backend.child) && isPidAlive(backend.ready.agentctl.pid),
  };
});

afterAll(() => suite.run());

/** The first connection whose session serves the tool. */
async function servingConnection(name: string): Promise<McpConnection> {
  for (const connection of world.connections) {
    if ((await connection.toolNames()).includes(name)) return connection;
  }
  throw new Error(`no session serves ${name}`);
}

type CallOutcome = { refused: boolean; detail: string };

async function callTool(connection: McpConnection, name: string, args: unknown): Promise<CallOutcome> {
  try {
    const result = await connection.client.request(
      { method: 'tools/call', params: { name, arguments: args as Record<string, unknown> } },
      CallToolResultSchema,
    );
    return { refused: result.isError === true, detail: JSON.stringify(result.content).slice(0, 300) };
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    if (error.code === INTERNAL_ERROR) throw new Error(`${name}: internal error: ${error.message}`);
    return { refused: true, detail: `${error.code}: ${error.message}` };
  }
}

test('the sessions together serve every tool of the catalogue', async () => {
  const served = new Set((await Promise.all(world.connections.map((c) => c.toolNames()))).flat());
  expect([...TOOL_CATALOGUE.keys()].filter((name) => !served.has(name))).toEqual([]);
});

describe.each([...TOOL_CATALOGUE.values()].map((tool) => [tool.name, tool] as const))('%s', (name, tool) => {
  test('never an internal error; a refusal writes nothing', async () => {
    const connection = await servingConnection(name);
    await fc.assert(
      fc.asyncProperty(toolArguments(tool, world.liveIds), async (args) => {
        const before = await world.digest();
        const outcome = await callTool(connection, name, args);
        if (outcome.refused) {
          expect({ args, outcome, db: await world.digest() }).toEqual({ args, outcome, db: before });
        }
      }),
      { seed: SEED, numRuns: RUNS_PER_TOOL, endOnFailure: true },
    );
    expect(world.isUp()).toBe(true);
  });
});
