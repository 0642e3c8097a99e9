// The backend's /metrics against a real backend (with its own agentctl) running the scripted test
// agent: behind the operator token like /api, and the named series move with a launch, a tools/list,
// tool calls, prompts and a live provider update.
import { request as httpRequest } from 'node:http';
import { launchAgentSession } from '../../helpers/agent-runtime';
import { useCleanup } from '../../helpers/cleanup';
import { LiveApi } from '../../helpers/live-updates';
import { freePort, parseMetrics, type Sample, sampleValue } from '../../helpers/metrics';
import { startBackend } from '../../helpers/processes';

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
    const { backend, runtime, taskId, session } = await launchAgentSession(cleanup, 'runtime');
    const { url } = backend.ready;
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

    // Stopping the session moves it to another state in the gauge.
    await runtime.stop(session.session_id);
    const stopped = await scrape();
    expect(sampleValue(stopped, 'kandev_backend_sessions', live)).toBeUndefined();
    expect(sampleValue(stopped, 'kandev_backend_sessions', { state: 'cancelled', executor: 'local' })).toBe(1);
  });

  test('the backend passes KANDEV_AGENTCTL_METRICS_ADDR on: its local agentctl serves /metrics there', async () => {
    const port = await freePort();
    await startBackend(cleanup, { KANDEV_AGENTCTL_METRICS_ADDR: `127.0.0.1:${port}` });
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    expect(sampleValue(parseMetrics(await response.text()), 'kandev_agentctl_mcp_connections')).toBe(0);
  });
});
