import { AppError } from '@kandev/protocol';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger/logger';

/** What the route reads of a prom-client Registry. */
export interface MetricsSource {
  readonly contentType: string;
  metrics(): Promise<string>;
}

/** GET /metrics: the Prometheus text exposition of one Registry (createApp puts it behind the token). */
export function metricsRoute(source: MetricsSource, logger: Logger): RequestHandler {
  return (_req, res, next) => {
    source.metrics().then(
      (body) => {
        res.type(source.contentType).send(body);
      },
      (err: unknown) => {
        logger.error({ err }, 'metrics collection failed');
        next(new AppError('internal', 'metrics collection failed'));
      },
    );
  };
}
