import { AppError } from '@kandev/protocol';
import { createBackendMetrics } from './backend-metrics';

async function value(metrics: ReturnType<typeof createBackendMetrics>, name: string, labels: Record<string, string>) {
  const metric = metrics.registry.getSingleMetric(name);
  const data = await metric?.get();
  return data?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))?.value;
}

describe('backend metrics', () => {
  test('each instance has its own registry: two backends in one process never collide', async () => {
    const a = createBackendMetrics();
    const b = createBackendMetrics();
    a.toolCall('get_task_kandev', 'ok', 0.01);
    expect(await value(a, 'kandev_backend_tool_calls_total', { tool: 'get_task_kandev' })).toBe(1);
    expect(await value(b, 'kandev_backend_tool_calls_total', { tool: 'get_task_kandev' })).toBeUndefined();
  });

  test('provider updates: each update by its outcome or its error code; a failed call counts every update', async () => {
    const metrics = createBackendMetrics();
    const stale = { ok: true as const, result: { outcome: 'stale' } };
    const lost = { ok: false as const, error: new AppError('not_found', 'gone') };
    await metrics.updateProvidersBatch(2, () => Promise.resolve([stale, lost]));
    const refused = metrics.updateProvidersBatch(2, () => Promise.reject(new AppError('unavailable', 'down')));
    await expect(refused).rejects.toThrow('down');
    await expect(metrics.updateProvidersBatch(1, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const expected = { stale: 1, not_found: 1, unavailable: 2, internal: 1 };
    for (const [outcome, count] of Object.entries(expected)) {
      expect(await value(metrics, 'kandev_backend_update_providers_total', { outcome })).toBe(count);
    }
  });

  test('gauges read their sources on scrape; prompt wait is dispatch minus queue time', async () => {
    const metrics = createBackendMetrics();
    let queued = 2;
    metrics.readFrom({
      sessionStates: ['running', 'failed'],
      executors: () => ['docker'],
      sessionCounts: () => Promise.resolve([{ state: 'running', executor: 'docker', count: 3 }]),
      queuedPrompts: () => Promise.resolve(queued),
      eventLog: () => Promise.resolve({ oldestId: 5, newestId: 9 }),
      openEventStreams: () => 2,
      pendingQuestions: () => Promise.resolve({ count: 1, oldestAskedAt: '2026-01-01T00:00:00.000Z' }),
      now: () => new Date('2026-01-01T00:01:00.000Z'),
    });
    expect(await value(metrics, 'kandev_backend_sessions', { state: 'running', executor: 'docker' })).toBe(3);
    expect(await value(metrics, 'kandev_backend_sessions', { state: 'failed', executor: 'docker' })).toBe(0);
    expect(await value(metrics, 'kandev_backend_event_log_rows', {})).toBe(5);
    expect(await value(metrics, 'kandev_backend_event_log_oldest_id', {})).toBe(5);
    expect(await value(metrics, 'kandev_backend_event_streams', {})).toBe(2);
    expect(await value(metrics, 'kandev_backend_questions_pending', {})).toBe(1);
    expect(await value(metrics, 'kandev_backend_question_oldest_pending_age_seconds', {})).toBe(60);
    expect(await value(metrics, 'kandev_backend_prompt_queue_depth', {})).toBe(2);
    queued = 0;
    expect(await value(metrics, 'kandev_backend_prompt_queue_depth', {})).toBe(0);
    metrics.promptDispatched('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:02.500Z');
    const wait = await metrics.registry.getSingleMetricAsString('kandev_backend_prompt_wait_seconds');
    expect(wait).toContain('kandev_backend_prompt_wait_seconds_sum 2.5');
    expect(wait).toContain('kandev_backend_prompt_wait_seconds_count 1');
  });

  test('every known reason, outcome and state is a series from the start, at 0', async () => {
    const metrics = createBackendMetrics();
    for (const reason of ['stopped', 'exited_ok', 'exited_error', 'signal', 'start_failed']) {
      expect(await value(metrics, 'kandev_backend_agent_exits_total', { reason })).toBe(0);
    }
    for (const how of ['closed', 'failed', 'refused']) {
      expect(await value(metrics, 'kandev_backend_event_streams_ended_total', { how })).toBe(0);
    }
    metrics.agentExited({ exitCode: 1, signal: null, expected: false });
    metrics.agentExited({ exitCode: null, signal: 'SIGKILL', expected: false });
    metrics.agentExited({ exitCode: null, signal: 'SIGTERM', expected: true });
    expect(await value(metrics, 'kandev_backend_agent_exits_total', { reason: 'exited_error' })).toBe(1);
    expect(await value(metrics, 'kandev_backend_agent_exits_total', { reason: 'signal' })).toBe(1);
    expect(await value(metrics, 'kandev_backend_agent_exits_total', { reason: 'stopped' })).toBe(1);
    const build = (await metrics.registry.getSingleMetric('kandev_build_info')?.get())?.values[0];
    expect(build).toMatchObject({ value: 1, labels: { node: process.versions.node, version: expect.any(String) } });
  });
});
