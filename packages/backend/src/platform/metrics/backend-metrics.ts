import { createInstruments } from '@kandev/metrics';
import { httpMetrics } from './http-metrics';
import { providerMetrics } from './provider-metrics';
import { runtimeMetrics } from './runtime-metrics';
import { scrapeGauges } from './scrape-gauges';

export type { MetricsSources, SessionCount } from './scrape-gauges';

/** How an event stream ends (platform/events/event-stream.ts reports it). */
const STREAM_ENDS = ['closed', 'failed', 'refused'] as const;
type EventStreamEnd = (typeof STREAM_ENDS)[number];

/**
 * The backend's instruments over its own Registry (with `kandev_build_info` and Node's defaults). Built
 * once by createBackend and handed to what it measures; every update is O(1) with bounded labels.
 */
export function createBackendMetrics() {
  const instruments = createInstruments();
  const streamEnds = instruments.counter({
    name: 'kandev_backend_event_streams_ended_total',
    help: 'Event streams that ended, by how: closed (by the client or at shutdown), failed (a read failed: the backend dropped it), refused (too many open)',
    labelNames: ['how'] as const,
    known: { how: STREAM_ENDS },
  });
  return {
    registry: instruments.registry,
    ...scrapeGauges(instruments),
    ...httpMetrics(instruments),
    ...providerMetrics(instruments),
    ...runtimeMetrics(instruments),
    eventStreamEnded(how: EventStreamEnd): void {
      streamEnds.inc({ how });
    },
  };
}

export type BackendMetrics = ReturnType<typeof createBackendMetrics>;
