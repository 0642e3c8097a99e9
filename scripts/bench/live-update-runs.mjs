// The measured parts of the live-update benchmark, each against one running backend (live-update-backend.mjs)
// with clients in this process (live-update-clients.mjs).
import { performance } from 'node:perf_hooks';
import { connectClient, connectRawClient, expectChange, within } from './live-update-clients.mjs';

// How long one list_changed (or all of one fan-out round's) may take before the run fails.
const NOTIFY_TIMEOUT_MS = 10_000;
// Clients connect this many at a time: an agent's start-up, not a load test of the handshake.
const CONNECT_CONCURRENCY = 25;
// Fan-out connections that use the official SDK client; the rest are lean raw clients (connectRawClient).
const SDK_CLIENTS = 10;

/** Alternating change: even runs add a fresh gitlab repository, odd runs remove the one just added. */
class Alternation {
  constructor(api, taskId, prefix) {
    Object.assign(this, { api, taskId, prefix, added: undefined, serial: 0 });
  }

  /** Sends the next change; resolves once its response body is read (the caller checks it). */
  async send() {
    if (this.added === undefined) {
      this.serial += 1;
      const remote_url = `https://gitlab.com/bench/${this.prefix}-${this.serial}`;
      const response = await this.api.addSources(this.taskId, [{ remote_url }]);
      return { kind: 'add', response, status: 201 };
    }
    const response = await this.api.removeSource(this.taskId, this.added);
    return { kind: 'remove', response, status: 200 };
  }

  /** Records what the change did (called after the caller checked the response). */
  applied({ kind, response }) {
    if (kind === 'remove') this.added = undefined;
    else if (response.body.added[0]?.provider !== 'gitlab') throw new Error(`added ${JSON.stringify(response.body)}`);
    else this.added = response.body.added[0].id;
  }
}

/** Launches one session of the task (agentctl warm, no agent); checks it got the github set. */
async function launch(api, taskId) {
  const session = await api.create(`/api/tasks/${taskId}/sessions`, {});
  if (session.launch_config.providers.join() !== 'github') {
    throw new Error(`session launched with providers ${session.launch_config.providers}, expected github`);
  }
  return session;
}

/** On PostgreSQL, times one database round trip into `samples` (the floor under every statement). */
async function sampleRoundTrip(backend, samples) {
  if (backend.databaseRoundTrip !== undefined) samples.push(await backend.databaseRoundTrip());
}

/** One client per session, `CONNECT_CONCURRENCY` at a time; all streams open when it resolves. */
export async function connectAll(backend, sessions, clients, sdkClients = sessions.length) {
  for (let i = 0; i < sessions.length; i += CONNECT_CONCURRENCY) {
    const chunk = sessions.slice(i, i + CONNECT_CONCURRENCY);
    const connect = (session, j) =>
      i + j < sdkClients ? connectClient(session, backend.logs) : connectRawClient(session);
    clients.push(...(await Promise.all(chunk.map(connect))));
  }
}

/**
 * Single session and its baseline, interleaved run by run (order alternating per add/remove pair) so that
 * machine noise lands on both. A live run: send the change, wait for the one list_changed, then a barrier
 * (tools/list on the same connection, which must show the change) and check no second one arrived.
 */
export async function singleSession(backend, ids, options, clients) {
  const liveTask = await backend.api.githubTask(ids.workspace, ids.github, 'live');
  const baselineTask = await backend.api.githubTask(ids.workspace, ids.github, 'baseline');
  // A lean raw connection: the notification is timed when its bytes arrive (the system's latency, not the
  // client library's parsing), as in the fan-out.
  await connectAll(backend, [await launch(backend.api, liveTask)], clients, 0);
  const client = clients[clients.length - 1];
  const live = new Alternation(backend.api, liveTask, 'live');
  const baseline = new Alternation(backend.api, baselineTask, 'baseline');
  const samples = { rest: [], sent: [], baseline: [], roundTrip: [] };

  const liveRun = async (run, record) => {
    const expected = client.count() + 1;
    const arrival = client.nth(expected);
    const sent = performance.now();
    const change = await live.send();
    const answered = performance.now();
    expectChange(`live run ${run} (${change.kind})`, change.response, change.status, 'dispatched', 1);
    live.applied(change);
    const notified = await within(arrival, NOTIFY_TIMEOUT_MS, `live run ${run}: no list_changed`, backend.logs);
    if ((await client.hasGitlabTools()) !== (change.kind === 'add')) {
      throw new Error(`live run ${run} (${change.kind}): the tool list does not show the change`);
    }
    if (client.count() !== expected) throw new Error(`live run ${run}: ${client.count() - expected + 1} list_changed`);
    if (!record) return;
    samples.rest.push(answered - sent);
    samples.sent.push(notified - sent);
  };
  const baselineRun = async (run, record) => {
    const sent = performance.now();
    const change = await baseline.send();
    const answered = performance.now();
    expectChange(`baseline run ${run} (${change.kind})`, change.response, change.status, 'not_needed', 0);
    baseline.applied(change);
    if (!record) return;
    samples.baseline.push(answered - sent);
    await sampleRoundTrip(backend, samples.roundTrip);
  };

  const total = options.warmup + options.runs;
  for (let run = 0; run < total; run++) {
    const record = run >= options.warmup;
    const order = Math.floor(run / 2) % 2 === 0 ? [liveRun, baselineRun] : [baselineRun, liveRun];
    for (const step of order) await step(run, record);
  }
  // Every change was exactly one notification: none lost, none late (a late one shows up here at the latest).
  await client.hasGitlabTools();
  if (client.count() !== total) throw new Error(`${client.count()} list_changed for ${total} changes`);
  return samples;
}

/**
 * Launches `count` sessions of one github-only task, each timed, each followed by a timed GET /healthz
 * (the baseline: what any request to the backend costs) and, on PostgreSQL, a timed database round trip;
 * then one client per session.
 */
export async function launchFanOut(backend, ids, count, clients) {
  const taskId = await backend.api.githubTask(ids.workspace, ids.github, 'fan-out');
  const sessions = [];
  const samples = { launch: [], healthz: [], roundTrip: [] };
  for (let i = 0; i < count; i++) {
    let started = performance.now();
    sessions.push(await launch(backend.api, taskId));
    samples.launch.push(performance.now() - started);
    started = performance.now();
    await backend.api.healthz();
    samples.healthz.push(performance.now() - started);
    await sampleRoundTrip(backend, samples.roundTrip);
  }
  const fanOutClients = [];
  await connectAll(backend, sessions, fanOutClients, SDK_CLIENTS);
  clients.push(...fanOutClients);
  return { taskId, samples, clients: fanOutClients };
}

/**
 * One task with every session live and connected. Each round is one change (alternating add/remove);
 * timed from sending it until the last client received its list_changed. Then a bounded wait for a late
 * duplicate: a no-op batch round trip through the backend, and a tools/list round trip through agentctl
 * on every connection (which must show the change); only then are the counts checked.
 */
export async function fanOut(backend, ids, fan, options) {
  const { taskId, clients } = fan;
  const alternation = new Alternation(backend.api, taskId, 'fan-out');
  const rounds = [];
  for (let round = 1; round <= options.rounds; round++) {
    const arrivals = Promise.all(clients.map((client) => client.nth(round)));
    const sent = performance.now();
    const change = await alternation.send();
    const answered = performance.now();
    const what = `fan-out round ${round} (${change.kind})`;
    expectChange(what, change.response, change.status, 'dispatched', clients.length);
    alternation.applied(change);
    const notified = await within(
      arrivals,
      NOTIFY_TIMEOUT_MS,
      `${what}: not every client got list_changed`,
      backend.logs,
    );

    const noop = await backend.api.addSources(taskId, [{ repository_id: ids.github }]);
    expectChange(`${what}: no-op batch`, noop, 200, 'not_needed', 0);
    const listed = await Promise.all(clients.map((client) => client.hasGitlabTools()));
    const stale = listed.filter((gitlab) => gitlab !== (change.kind === 'add')).length;
    if (stale > 0) throw new Error(`${what}: ${stale} clients do not list the change`);
    const extra = clients.filter((client) => client.count() !== round).length;
    if (extra > 0) throw new Error(`${what}: ${extra} clients did not get exactly one list_changed this round`);
    rounds.push({ kind: change.kind, rest: answered - sent, all: Math.max(...notified) - sent });
  }
  return rounds;
}
