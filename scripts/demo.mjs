#!/usr/bin/env node
// The product end to end, printed step by step: builds, starts its own backend (which starts a local
// agentctl) on a temp data dir, then
//   1. three tasks and the MCP tools each session gets (the official MCP SDK client connects to each);
//   2. an ACP agent (the scripted test agent) running a task: what it discovers with tools/list, a turn
//      in which it calls get_task_kandev and step_complete_kandev, the conversation that results;
//   3. prompts queued while a turn runs, draining one at a time in order;
// and stops everything (no process left behind, data dir removed).
//   npm run demo
//   KANDEV_URL=http://127.0.0.1:7420 npm run demo   # against a backend you started (`npm start`)
import { readFileSync } from 'node:fs';
// (its API token: KANDEV_API_TOKEN, else the file KANDEV_API_TOKEN_FILE, else ./data/api-token)
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbeddedBackend, ensureBuilt, isPidAlive } from './demo/embedded-backend.mjs';
import { createDemoRepository } from './demo/git-repository.mjs';
import { Api, conversation, waitFor } from './demo/rest.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const root = fileURLToPath(new URL('..', import.meta.url));
const TEST_AGENT_MAIN = join(root, 'packages/test-agent/dist/main.js');
const TEST_AGENT_SCRIPT = join(root, 'packages/test-agent/examples/discover-and-echo.json');

const heading = (text) => console.log(`\n== ${text} ==`);
const short = (text, max = 100) => (text.length > max ? `${text.slice(0, max - 3)}...` : text);

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

/** Part 1: the three question-capability cases and their provider tools (MCP-only sessions). */
async function scopedToolSets(api, workspaceId) {
  heading('1. Every session gets the tools that fit its task');
  const repo = (source) => api.create('/api/repositories', { workspace_id: workspaceId, ...source });
  const github = await repo({ remote_url: `https://github.com/acme/api-${workspaceId}.git` });
  const gitlab = await repo({ remote_url: `git@gitlab.com:acme/web-${workspaceId}.git` });
  const local = await repo({ local_path: `/srv/checkouts/tool-${workspaceId}` });
  const bitbucket = await repo({ remote_url: `https://bitbucket.org/acme/lib-${workspaceId}.git` });
  console.log('repositories:');
  for (const r of [github, gitlab, local, bitbucket]) {
    console.log(`  ${(r.remote_url ?? r.local_path).replace(`-${workspaceId}`, '')} -> ${r.provider ?? 'no provider'}`);
  }
  const task = (fields) => api.create('/api/tasks', { workspace_id: workspaceId, ...fields });
  const normal = await task({ title: 'Normal task', repository_ids: [github.id, gitlab.id] });
  const child = await task({
    title: 'Autopilot child',
    parent_id: normal.id,
    autopilot: true,
    repository_ids: [gitlab.id],
  });
  const root = await task({ title: 'Autopilot root', autopilot: true, repository_ids: [local.id, bitbucket.id] });
  for (const t of [normal, child, root]) {
    const session = await api.create(`/api/tasks/${t.id}/sessions`, {});
    const { question_capability: capability, providers } = session.launch_config;
    const tools = await listTools(session);
    console.log(`${t.title}: question capability ${capability}, providers [${providers.join(', ')}]`);
    console.log(`  ${tools.length} tools: ${tools.join(', ')}`);
  }
}

/** One conversation entry as a line: who, then what. */
function describeEntry(entry) {
  const meta = entry.metadata ?? {};
  switch (entry.type) {
    case 'message':
      return entry.author === 'operator'
        ? `operator  > ${entry.content}`
        : `${entry.author.padEnd(9)} < ${entry.content}`;
    case 'tool_call':
      return `agent     tool ${entry.content}: ${meta.status ?? '?'}`;
    case 'step_complete':
      return `agent     step complete: ${short(entry.content)}`;
    case 'session_event':
      return `session   ${entry.content}`;
    default:
      return `${entry.type.padEnd(9)} ${short(entry.content)}`;
  }
}

/** Prints a task's conversation entries that were not printed yet. */
function conversationPrinter(api, taskId) {
  const printed = new Set();
  return async (indent = '  ') => {
    for (const entry of await conversation(api, taskId)) {
      if (printed.has(entry.id)) continue;
      printed.add(entry.id);
      console.log(`${indent}${describeEntry(entry)}`);
    }
  };
}

const finished = (prompt) => prompt.status === 'completed' || prompt.status === 'failed';

async function prompts(api, sessionId) {
  return (await api.get(`/api/sessions/${sessionId}/prompts`)).items;
}

function postPrompt(api, sessionId, prompt) {
  return api.call('POST', `/api/sessions/${sessionId}/prompts`, 202, { prompt });
}

/** Waits until every prompt of the session finished; returns them. */
function drained(api, sessionId, count) {
  return waitFor(async () => {
    const items = await prompts(api, sessionId);
    return items.length === count && items.every(finished) ? items : undefined;
  }, `${count} prompts to finish`);
}

function waitForSession(api, sessionId, holds, what) {
  return waitFor(async () => {
    const view = await api.get(`/api/sessions/${sessionId}`);
    return holds(view) ? view : undefined;
  }, what);
}

const agentIdle = (view) => view.state === 'waiting_for_input' && view.agent?.status === 'ready';

/**
 * Part 2: an agent profile for the test agent, a task with it on a real git repository (provider
 * github), a session, three prompts. The agent works in the task's worktree of that repository.
 */
async function agentAtWork(api, workspaceId, checkout, embedded) {
  heading('2. An ACP agent works on a task (the scripted test agent)');
  const repository = await api.create('/api/repositories', {
    workspace_id: workspaceId,
    local_path: checkout.path,
    provider: 'github',
    name: 'login-service',
  });
  console.log(`repository: a local git repository (${checkout.path}), provider github`);
  const args = [TEST_AGENT_MAIN, '--script', TEST_AGENT_SCRIPT];
  const profile = await api.create('/api/agent-profiles', {
    name: `Scripted test agent ${workspaceId}`,
    command: process.execPath,
    args,
    supports_mcp: true,
  });
  console.log(`agent profile: node ${args.map((a) => (a.startsWith(root) ? relative(root, a) : a)).join(' ')}`);
  const task = await api.create('/api/tasks', {
    workspace_id: workspaceId,
    title: 'Fix the login bug',
    repository_ids: [repository.id],
    agent_profile_id: profile.id,
  });
  const launched = await api.create(`/api/tasks/${task.id}/sessions`, {});
  const sessionId = launched.session_id;
  const atLaunch = await api.get(`/api/sessions/${sessionId}`);
  console.log(`task "${task.title}": session launched, state ${atLaunch.state}`);
  const ready = await waitForSession(api, sessionId, agentIdle, 'the agent to be ready');
  embedded?.watchPid(ready.agent.pid);
  console.log(
    `agent started (pid ${ready.agent.pid}, ACP session ${ready.agent.acp_session_id}): ` +
      `state ${ready.state}, agent ${ready.agent.status}`,
  );

  const printNew = conversationPrinter(api, task.id);
  let count = 0;
  for (const text of ['Please list tools you can see.', 'Where are you working?', 'Please finish the task.']) {
    await postPrompt(api, sessionId, text);
    count += 1;
    const [last] = (await drained(api, sessionId, count)).slice(-1);
    console.log(`\nprompt: "${text}"`);
    await printNew();
    console.log(`  -> prompt ${last.status} (${last.stop_reason ?? last.error})`);
  }
  const view = await waitForSession(api, sessionId, agentIdle, 'the agent to be idle');
  const reply = (await conversation(api, task.id)).find((m) => m.author === 'agent' && m.content.startsWith('Tools I'));
  const discovered = reply?.content.split(': ')[1]?.split(', ') ?? [];
  const same = JSON.stringify(discovered) === JSON.stringify([...(view.tools ?? [])].sort());
  console.log(
    `\nthe agent discovered ${discovered.length} tools (a GitHub repository: PR tools, no MR tools): ` +
      (same ? 'exactly the set agentctl reports for its session' : `agentctl reports ${view.tools}`),
  );
  if (!same) throw new Error('what the agent discovered differs from what agentctl reports');
  return { task, sessionId, printNew, count, pid: view.agent.pid };
}

/** Part 3: a blocking turn, three prompts queued behind it, a cancel, the queue draining in order. */
async function queueDrains(api, run) {
  heading('3. Prompts queued while a turn runs drain one at a time, in order');
  const { sessionId } = run;
  const blocking = await postPrompt(api, sessionId, 'block until I cancel');
  await waitForSession(
    api,
    sessionId,
    (view) => view.agent?.current_prompt_id === blocking.queued_prompt_id,
    'the blocking turn to start',
  );
  for (const text of ['first', 'second', 'third']) await postPrompt(api, sessionId, text);
  const waiting = (await prompts(api, sessionId)).slice(run.count);
  console.log(`while a turn runs: ${waiting.map((p) => `"${p.prompt}" ${p.status}`).join(', ')}`);
  const cancel = await api.call('POST', `/api/sessions/${sessionId}/cancel`, 200, {});
  console.log(`cancel: ${cancel.cancelled ? 'the running turn was cancelled' : 'nothing was running'}`);
  const all = await drained(api, sessionId, run.count + 4);
  console.log('the queue, in delivery order:');
  for (const p of [...all.slice(run.count)].sort((a, b) => Date.parse(a.dispatched_at) - Date.parse(b.dispatched_at))) {
    console.log(`  "${p.prompt}": ${p.status} (${p.stop_reason ?? p.error})`);
  }
  console.log('conversation, continued:');
  await run.printNew();
}

async function stopSession(api, run) {
  heading('4. Stop and archive');
  const stopped = await api.call('POST', `/api/sessions/${run.sessionId}/stop`, 200, {});
  await waitFor(() => !isPidAlive(run.pid), 'the agent process to exit', { timeoutMs: 15_000 });
  console.log(`session ${stopped.state}; agent pid ${run.pid} is gone`);
  await api.call('DELETE', `/api/tasks/${run.task.id}`, 204);
  console.log('task archived: its workspace and worktree are removed (the task branch stays in the repository)');
}

/** The token for a backend the operator started: the variable, the file it names, or the default file. */
function externalToken() {
  if (process.env.KANDEV_API_TOKEN) return process.env.KANDEV_API_TOKEN;
  return readFileSync(process.env.KANDEV_API_TOKEN_FILE || join('data', 'api-token'), 'utf8').trim();
}

async function main() {
  ensureBuilt();
  const external = process.env.KANDEV_URL;
  const embedded = external === undefined ? createEmbeddedBackend(root) : undefined;
  let failed = false;
  let started;
  const checkout = createDemoRepository();
  try {
    started = await embedded?.start();
    const url = external ?? started.url;
    console.log(external === undefined ? 'started a backend and its agentctl on a temp data dir' : `backend: ${url}`);
    const api = new Api(url, external === undefined ? started.token : externalToken());
    const workspace = await api.create('/api/workspaces', { name: `demo ${new Date().toISOString()}` });
    await scopedToolSets(api, workspace.id);
    const run = await agentAtWork(api, workspace.id, checkout, embedded);
    await queueDrains(api, run);
    await stopSession(api, run);
  } catch (error) {
    failed = true;
    if (embedded?.interrupted()) {
      console.error('demo interrupted');
    } else {
      console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
      if (started !== undefined) console.error(started.logs());
    }
  } finally {
    checkout.remove();
    if (embedded !== undefined) {
      const leftovers = await embedded.finish();
      if (leftovers.length > 0) {
        failed = true;
        console.error(`cleanup: pids ${leftovers.join(', ')} outlived the backend's stop and were killed`);
      } else if (!failed) {
        console.log('\nstopped the backend, its agentctl and every agent; removed the data dir');
      }
    }
  }
  process.exit(failed ? 1 : 0);
}

void main();
