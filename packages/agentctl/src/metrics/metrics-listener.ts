import type { HttpTimeouts } from '@kandev/protocol';
import express from 'express';
import type { Registry } from 'prom-client';
import { hostCheck, type HttpListener, startHttpListener } from '../lifecycle/http-listener';
import type { Logger } from '../logger';

export type MetricsListener = HttpListener;

export interface MetricsListenerOptions {
  address: { host: string; port: number };
  /** Host names accepted besides the local ones (KANDEV_AGENTCTL_ALLOWED_HOSTS, as on the MCP listener). */
  allowedHosts: readonly string[];
  /** The same header, request and keep-alive timeouts as the MCP listener. */
  timeouts: HttpTimeouts;
}

/**
 * The Prometheus endpoint on its own address (KANDEV_AGENTCTL_METRICS_ADDR): GET /metrics and nothing
 * else. Separate from the MCP listener so it can be bound (or firewalled) for the scraper alone, but
 * guarded like it: a foreign Host (DNS rebinding) is refused and a stalled client is disconnected.
 */
export async function startMetricsListener(
  registry: Registry,
  options: MetricsListenerOptions,
  log: Logger,
): Promise<MetricsListener> {
  const app = express();
  app.disable('x-powered-by');
  app.use(hostCheck(options.allowedHosts));
  app.get('/metrics', (_req, res) => {
    registry.metrics().then(
      (body) => res.status(200).type(registry.contentType).send(body),
      (err: unknown) => {
        log.error({ err }, 'metrics collection failed');
        res.status(500).type('text/plain').send('metrics collection failed\n');
      },
    );
  });
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('not found\n');
  });
  return startHttpListener(app, options.address.host, options.address.port, options.timeouts);
}
