// The backend's /metrics against a real backend (with its own agentctl, its /metrics on) running the
// scripted test agent: behind the operator token like /api; every known state and reason is a series
// at 0 before anything happens; the named series move with a launch, a tools/list, tool calls, prompts,
// an event stream and a live provider update; HTTP requests are labelled by route template.
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { launchAgentSession } from '../../helpers/agent-runtime';
import { useCleanup } from '../../helpers/cleanup';
import { LiveApi } from '../../helpers/live-updates';
import { SseStream } from '../../helpers/sse';
import { freePort, parseMetrics, type Sample, sampleValue } from '../../helpers/metrics';
import { startBackend } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

const ROOT = join(__dirname, '../../..');

/** The metric families a /metrics text declares (`# TYPE name kind`), samples or not. */
function metricFamilies(text: string): string[] {
  return [...text.matchAll(/^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) /gm)].map((match) => match[1]!);
}

/** Every kandev metric name a file uses (recording rules, `kandev:…`, are its own names). */
function referencedMetrics(text: string): string[] {
  return [...new Set([...text.matchAll(/\bkandev_[a-z0-9_]+/g)].map((match) => match[0]))];
}

/** A GET with a chosen Host header (fetch cannot set one). */
function getWithHost(url: string, host: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { host, authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('backend /metrics', () => {
  const cleanup = useCleanup();

  test('401 without the token; with it the named series show the session, its calls and its prompts', async () => {
    const agentctlPort = await freePort();
    const env = { KANDEV_AGENTCTL_METRICS_ADDR: `127.0.0.1:${agentctlPort}` };
    const { backend, runtime, taskId, session } = await launchAgentSession(cleanup, 'runtime', { env });
    const { url } = backend.ready;
    const scrapeAgentctl = async () =>
      parseMetrics(await (await fetch(`http://127.0.0.1:${agentctlPort}/metrics`)).text());
    const scrape = async (): Promise<Sample[]> => {
      const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${backend.apiToken}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      return parseMetrics(await response.text());
    };

    const anonymous = await fetch(`${url}/metrics`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    const wrong = await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer not-a-token' } });
    expect(wrong.status).toBe(401);
    expect(await getWithHost(`${url}/metrics`, 'evil.example:80', backend.apiToken)).toBe(403);
    expect((await fetch(`${url}/healthz`)).status).toBe(200); // stays open

    const before = await scrape();
    const live = { state: 'waiting_for_input', executor: 'local' };
    expect(sampleValue(before, 'kandev_backend_sessions', live)).toBe(1);
    expect(sampleValue(before, 'kandev_backend_prompt_queue_depth')).toBe(0);
    expect(sampleValue(before, 'kandev_backend_prompt_wait_seconds_count')).toBe(0);
    expect(sampleValue(before, 'kandev_backend_tool_calls_total')).toBeUndefined();
    expect(sampleValue(before, 'kandev_backend_gitlab_polls_total')).toBe(0);
    expect(sampleValue(before, 'process_cpu_user_seconds_total')).toEqual(expect.any(Number));
    expect(sampleValue(before, 'kandev_build_info', { node: process.versions.node })).toBe(1);
    // Known states and reasons are series at 0 before anything happened.
    for (const state of ['failed', 'cancelled', 'completed']) {
      expect(sampleValue(before, 'kandev_backend_sessions', { state, executor: 'local' })).toBe(0);
    }
    for (const reason of ['stopped', 'exited_ok', 'exited_error', 'signal', 'start_failed']) {
      expect(sampleValue(before, 'kandev_backend_agent_exits_total', { reason })).toBe(0);
    }
    for (const how of ['closed', 'failed', 'refused']) {
      expect(sampleValue(before, 'kandev_backend_event_streams_ended_total', { how })).toBe(0);
    }
    expect(sampleValue(before, 'kandev_backend_event_streams')).toBe(0);
    expect(sampleValue(before, 'kandev_backend_questions_pending')).toBe(0);
    expect(sampleValue(before, 'kandev_backend_question_oldest_pending_age_seconds')).toBe(0);
    expect(sampleValue(before, 'kandev_backend_turn_duration_seconds_count', { outcome: 'completed' })).toBe(0);
    expect(sampleValue(before, 'kandev_backend_session_start_duration_seconds_count', { outcome: 'ok' })).toBe(1);
    expect(sampleValue(before, 'kandev_backend_event_log_rows')).toBeGreaterThan(0);
    expect(sampleValue(before, 'kandev_backend_event_log_oldest_id')).toBe(1);
    const agentctlBefore = await scrapeAgentctl();
    for (const outcome of ['answered', 'timed_out', 'cancelled', 'channel_lost']) {
      expect(sampleValue(agentctlBefore, 'kandev_agentctl_forwarded_tool_calls_total', { outcome })).toBe(0);
    }
    expect(sampleValue(agentctlBefore, 'kandev_agentctl_sessions')).toBe(1);
    expect(sampleValue(agentctlBefore, 'kandev_agentctl_session_tools_count')).toBe(1);
    expect(sampleValue(agentctlBefore, 'kandev_build_info', { node: process.versions.node })).toBe(1);
    // An open event stream is counted while it is open.
    const stream = await SseStream.open(`${url}/api/events`, cleanup, { token: backend.apiToken });
    await stream.head();
    expect(sampleValue(await scrape(), 'kandev_backend_event_streams')).toBe(1);

    // A tools/list turn, then a turn with two tool calls (get_task_kandev, step_complete_kandev).
    await runtime.postPrompt(session.session_id, 'Please list tools.');
    await runtime.waitForDrained(session.session_id, 1);
    await runtime.postPrompt(session.session_id, 'Please finish the task.');
    await runtime.waitForDrained(session.session_id, 2);
    await runtime.waitForState(session.session_id, 'waiting_for_input');
    // A live provider update: the first github repository reaches the running session.
    const api = new LiveApi(url, backend.apiToken);
    const batch = await api.addSources(taskId, [{ remote_url: 'https://github.com/acme/api' }]);
    expect(batch.body.refresh).toMatchObject({ status: 'applied' });

    const after = await scrape();
    expect(sampleValue(after, 'kandev_backend_sessions', live)).toBe(1);
    expect(sampleValue(after, 'kandev_backend_prompt_queue_depth')).toBe(0);
    expect(sampleValue(after, 'kandev_backend_prompt_wait_seconds_count')).toBe(2);
    for (const tool of ['get_task_kandev', 'step_complete_kandev']) {
      expect(sampleValue(after, 'kandev_backend_tool_calls_total', { tool, outcome: 'ok' })).toBe(1);
    }
    const applied = { outcome: 'applied' };
    expect(sampleValue(after, 'kandev_backend_update_providers_total', applied)).toBe(1);
    expect(sampleValue(after, 'kandev_backend_update_providers_duration_seconds_count', applied)).toBe(1);
    expect(sampleValue(after, 'kandev_backend_turn_duration_seconds_count', { outcome: 'completed' })).toBe(2);
    const tool = { tool: 'get_task_kandev' };
    expect(sampleValue(after, 'kandev_backend_tool_call_duration_seconds_count', tool)).toBe(1);
    // The route template, never the URL with the session's id in it.
    const prompts = { method: 'POST', route: '/api/sessions/:id/prompts', status: '202' };
    expect(sampleValue(after, 'kandev_backend_http_requests_total', prompts)).toBe(2);
    const routes = new Set(
      after.filter((s) => s.name === 'kandev_backend_http_requests_total').map((s) => s.labels.route),
    );
    expect([...routes].filter((route) => route?.includes(session.session_id))).toEqual([]);
    await fetch(`${url}/api/no-such-route/${session.session_id}`, {
      headers: { authorization: `Bearer ${backend.apiToken}` },
    });
    const unmatched = { method: 'GET', route: '(unmatched)', status: '404' };
    expect(sampleValue(await scrape(), 'kandev_backend_http_requests_total', unmatched)).toBe(1);
    const agentctlAfter = await scrapeAgentctl();
    expect(sampleValue(agentctlAfter, 'kandev_agentctl_forwarded_tool_calls_total', { outcome: 'answered' })).toBe(2);
    expect(
      sampleValue(agentctlAfter, 'kandev_agentctl_forwarded_tool_call_duration_seconds_count', { outcome: 'answered' }),
    ).toBe(2);
    expect(sampleValue(agentctlAfter, 'kandev_agentctl_list_changed_delivery_seconds_count')).toBeGreaterThan(0);
    expect(sampleValue(agentctlAfter, 'kandev_agentctl_agents', { status: 'ready' })).toBe(1);
    stream.close();

    // Stopping the session moves it to another state in the gauge.
    await runtime.stop(session.session_id);
    // The agent's exit and the stream's end arrive after the stop's answer: the scrape that shows both.
    const stopped = await waitUntil(
      async () => {
        const samples = await scrape();
        const exited = sampleValue(samples, 'kandev_backend_agent_exits_total', { reason: 'stopped' }) === 1;
        return exited && sampleValue(samples, 'kandev_backend_event_streams') === 0 ? samples : undefined;
      },
      { timeoutMs: 15_000, what: 'the agent exit and the stream end counted' },
    );
    expect(sampleValue(stopped, 'kandev_backend_sessions', live)).toBe(0);
    expect(sampleValue(stopped, 'kandev_backend_sessions', { state: 'cancelled', executor: 'local' })).toBe(1);
    expect(sampleValue(stopped, 'kandev_backend_agent_exits_total', { reason: 'stopped' })).toBe(1);
    expect(sampleValue(stopped, 'kandev_backend_event_streams_ended_total', { how: 'closed' })).toBe(1);
    expect(sampleValue(stopped, 'kandev_backend_event_streams')).toBe(0);
  });

  test('the backend passes KANDEV_AGENTCTL_METRICS_ADDR on: its local agentctl serves /metrics there', async () => {
    const port = await freePort();
    const backend = await startBackend(cleanup, { KANDEV_AGENTCTL_METRICS_ADDR: `127.0.0.1:${port}` });
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    const agentctlText = await response.text();
    expect(sampleValue(parseMetrics(agentctlText), 'kandev_agentctl_mcp_connections')).toBe(0);

    // deploy/: the dashboard and the rules name only metrics the two daemons export.
    const headers = { authorization: `Bearer ${backend.apiToken}` };
    const backendText = await (await fetch(`${backend.ready.url}/metrics`, { headers })).text();
    const exported = new Set([...metricFamilies(backendText), ...metricFamilies(agentctlText)]);
    const referenced = [
      ...referencedMetrics(readFileSync(join(ROOT, 'deploy/grafana/kandev-dashboard.json'), 'utf8')),
      ...referencedMetrics(readFileSync(join(ROOT, 'deploy/prometheus/kandev-rules.yml'), 'utf8')),
    ];
    expect(referenced.length).toBeGreaterThan(20);
    const family = (name: string) => (exported.has(name) ? name : name.replace(/_(bucket|sum|count)$/, ''));
    expect(referenced.filter((name) => !exported.has(family(name)))).toEqual([]);
  });
});
