import type { ServerOptions } from 'node:http';

/**
 * How long an HTTP listener waits on a client (both daemons use the same variables). Node's own
 * defaults (60 s headers, 300 s request, checked every 30 s) let a slow client hold a socket for
 * minutes; these are short enough that it cannot, and long enough for any honest request.
 */
export interface HttpTimeouts {
  /** Receiving the request line and headers (KANDEV_HTTP_HEADERS_TIMEOUT_MS). */
  readonly headersMs: number;
  /** Receiving the whole request, body included (KANDEV_HTTP_REQUEST_TIMEOUT_MS); not the response. */
  readonly requestMs: number;
  /** An idle keep-alive socket between requests (KANDEV_HTTP_KEEP_ALIVE_TIMEOUT_MS). */
  readonly keepAliveMs: number;
}

export const HTTP_TIMEOUT_DEFAULTS: HttpTimeouts = Object.freeze({
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
});

/** The env variables, in HttpTimeouts order (for config errors). */
export const HTTP_TIMEOUT_VARIABLES = [
  'KANDEV_HTTP_HEADERS_TIMEOUT_MS',
  'KANDEV_HTTP_REQUEST_TIMEOUT_MS',
  'KANDEV_HTTP_KEEP_ALIVE_TIMEOUT_MS',
] as const;

/** Node refuses a headers timeout above the request timeout; a config check names both variables. */
export function httpTimeoutsConsistent(timeouts: HttpTimeouts): boolean {
  return timeouts.headersMs <= timeouts.requestMs;
}

/**
 * `http.createServer` options enforcing the timeouts. Node checks headers and request deadlines on an
 * interval (default 30 s), so the interval is derived from the shorter deadline: a deadline is
 * enforced at most half of itself late (and at most 1 s late).
 */
export function httpServerOptions(timeouts: HttpTimeouts): ServerOptions {
  const shortest = Math.min(timeouts.headersMs, timeouts.requestMs);
  return {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(shortest / 2))),
  };
}
