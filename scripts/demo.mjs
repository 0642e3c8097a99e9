#!/usr/bin/env node
// Walks the three question-capability cases against a running backend (`npm start` in another
// terminal) and connects the official MCP SDK client to each session, as an agent would.
//   npm run demo                      # backend at http://127.0.0.1:7420
//   KANDEV_URL=http://host:port npm run demo
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const api = process.env.KANDEV_URL ?? 'http://127.0.0.1:7420';

async function post(path, body) {
  const response = await fetch(`${api}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok) throw new Error(`POST ${path} -> ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function listTools(session) {
  const client = new Client({ name: 'kandev-demo', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(session.mcp_url), {
    requestInit: { headers: { Authorization: `Bearer ${session.mcp_token}` } },
  });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((tool) => tool.name).sort();
  } finally {
    await client.close();
  }
}

async function main() {
  try {
    await fetch(`${api}/healthz`);
  } catch {
    console.error(`no backend at ${api}: run \`npm start\` first (or set KANDEV_URL)`);
    process.exit(1);
  }
  const workspace = await post('/api/workspaces', { name: `demo ${new Date().toISOString()}` });
  const repo = (source) => post('/api/repositories', { workspace_id: workspace.id, ...source });
  const github = await repo({ remote_url: `https://github.com/acme/api-${workspace.id}.git` });
  const gitlab = await repo({ remote_url: `git@gitlab.com:acme/web-${workspace.id}.git` });
  const local = await repo({ local_path: `/srv/checkouts/tool-${workspace.id}` });
  const bitbucket = await repo({ remote_url: `https://bitbucket.org/acme/lib-${workspace.id}.git` });
  console.log('repositories:');
  for (const r of [github, gitlab, local, bitbucket]) console.log(`  ${r.remote_url ?? r.local_path} -> ${r.provider}`);

  const task = (fields) => post('/api/tasks', { workspace_id: workspace.id, ...fields });
  const normal = await task({ title: 'Normal task', repository_ids: [github.id, gitlab.id] });
  const child = await task({
    title: 'Autopilot child',
    parent_id: normal.id,
    autopilot: true,
    repository_ids: [gitlab.id],
  });
  const root = await task({ title: 'Autopilot root', autopilot: true, repository_ids: [local.id, bitbucket.id] });

  for (const t of [normal, child, root]) {
    const session = await post(`/api/tasks/${t.id}/sessions`, {});
    const { question_capability: capability, providers } = session.launch_config;
    const tools = await listTools(session);
    console.log(`\n${t.title}: question capability ${capability}, providers [${providers.join(', ')}]`);
    console.log(`  mcp_url ${session.mcp_url}`);
    console.log(`  ${tools.length} tools: ${tools.join(', ')}`);
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
