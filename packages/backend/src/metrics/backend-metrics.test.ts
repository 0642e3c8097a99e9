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
    a.toolCall('get_task_kandev', 'ok');
    expect(await value(a, 'kandev_backend_tool_calls_total', { tool: 'get_task_kandev' })).toBe(1);
    expect(await value(b, 'kandev_backend_tool_calls_total', { tool: 'get_task_kandev' })).toBeUndefined();
  });

  test('UpdateProviders: the outcome of a result, the code of an AppError, internal for anything else', async () => {
    const metrics = createBackendMetrics();
    await metrics.updateProviders(() => Promise.resolve({ outcome: 'stale' }));
    const refused = metrics.updateProviders(() => Promise.reject(new AppError('unavailable', 'down')));
    await expect(refused).rejects.toThrow('down');
    await expect(metrics.updateProviders(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    for (const outcome of ['stale', 'unavailable', 'internal']) {
      expect(await value(metrics, 'kandev_backend_update_providers_total', { outcome })).toBe(1);
    }
  });

  test('gauges read their sources on scrape; prompt wait is dispatch minus queue time', async () => {
    const metrics = createBackendMetrics();
    let queued = 2;
    metrics.readFrom({
      sessionCounts: () => Promise.resolve([{ state: 'running', executor: 'docker', count: 3 }]),
      queuedPrompts: () => Promise.resolve(queued),
    });
    expect(await value(metrics, 'kandev_backend_sessions', { state: 'running', executor: 'docker' })).toBe(3);
    expect(await value(metrics, 'kandev_backend_prompt_queue_depth', {})).toBe(2);
    queued = 0;
    expect(await value(metrics, 'kandev_backend_prompt_queue_depth', {})).toBe(0);
    metrics.promptDispatched('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:02.500Z');
    const wait = await metrics.registry.getSingleMetricAsString('kandev_backend_prompt_wait_seconds');
    expect(wait).toContain('kandev_backend_prompt_wait_seconds_sum 2.5');
    expect(wait).toContain('kandev_backend_prompt_wait_seconds_count 1');
  });
});
