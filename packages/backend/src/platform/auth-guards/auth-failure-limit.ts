import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ErrorBody } from '../http/error-middleware';
import { requestIdOf } from '../http/request-id';

// Failed authentication, counted per client address: N failures within a window and every further
// attempt from that address is refused with 429 (and Retry-After) until the window ends, before any
// token is hashed or looked up. Successful requests are never counted, delayed or stored.

export const AUTH_FAILURE_DEFAULTS = Object.freeze({ maxFailures: 10, windowMs: 60_000 });

/** Addresses tracked at most (oldest dropped): bounds the memory a spray of addresses can take. */
const MAX_ADDRESSES = 10_000;

export interface AuthFailureLimitOptions {
  /** Failures from one address that start the refusal (KANDEV_AUTH_FAILURE_LIMIT). */
  maxFailures: number;
  /** The window the failures are counted in, from the first (KANDEV_AUTH_FAILURE_WINDOW_MS). */
  windowMs: number;
  /**
   * Peers whose X-Forwarded-For is believed (KANDEV_TRUSTED_PROXIES, exact addresses); empty: the
   * socket's address is the client, whatever a header claims.
   */
  trustedProxies?: readonly string[];
  /** Monotonic milliseconds (tests may step it); default performance.now. */
  now?: () => number;
}

interface Window {
  startedAt: number;
  failures: number;
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are one client. */
const plainAddress = (address: string): string => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

export class AuthFailureLimit {
  private readonly windows = new Map<string, Window>();
  private readonly now: () => number;
  private readonly trustedProxies: ReadonlySet<string>;

  constructor(private readonly options: AuthFailureLimitOptions) {
    this.now = options.now ?? (() => performance.now());
    this.trustedProxies = new Set((options.trustedProxies ?? []).map(plainAddress));
  }

  /**
   * The client: the socket's peer, or, when that peer is a trusted proxy, the nearest address in
   * X-Forwarded-For that is not one (each proxy appends the peer it saw; earlier entries are the
   * client's own word).
   */
  clientAddress(req: Request): string {
    const peer = plainAddress(req.socket.remoteAddress ?? '');
    if (!this.trustedProxies.has(peer)) return peer;
    const forwarded = (req.get('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => plainAddress(entry.trim()))
      .filter((entry) => entry !== '');
    for (let i = forwarded.length - 1; i >= 0; i -= 1) {
      const hop = forwarded[i];
      if (hop !== undefined && !this.trustedProxies.has(hop)) return hop;
    }
    return peer;
  }

  /** Seconds until `address` may try again, or undefined when it is not refused. */
  retryAfterSeconds(address: string): number | undefined {
    const window = this.windows.get(address);
    if (window === undefined) return undefined;
    const left = window.startedAt + this.options.windowMs - this.now();
    if (left <= 0) {
      this.windows.delete(address);
      return undefined;
    }
    return window.failures >= this.options.maxFailures ? Math.max(1, Math.ceil(left / 1000)) : undefined;
  }

  /** One failed authentication from `address`. */
  recordFailure(address: string): void {
    const now = this.now();
    let window = this.windows.get(address);
    if (window === undefined || now - window.startedAt >= this.options.windowMs) {
      if (window === undefined && this.windows.size >= MAX_ADDRESSES) this.dropOldest(now);
      window = { startedAt: now, failures: 0 };
      this.windows.delete(address); // re-inserted last: the map stays in window-start order
      this.windows.set(address, window);
    }
    window.failures += 1;
  }

  /**
   * Goes before whatever authenticates (the /api bearer middleware, POST /login): a refused address
   * gets 429 at once, with no token hashed or looked up; otherwise the request runs and a 401 it ends
   * with counts as a failure of its address.
   */
  middleware(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction): void => {
      const address = this.clientAddress(req);
      const retryAfter = this.retryAfterSeconds(address);
      if (retryAfter !== undefined) {
        const body: ErrorBody = {
          error: {
            code: 'too_many_requests',
            message: `too many failed authentications from this address; retry in ${retryAfter} s`,
            request_id: requestIdOf(res),
          },
        };
        res.status(429).set('Retry-After', String(retryAfter)).json(body);
        return;
      }
      res.once('finish', () => {
        if (res.statusCode === 401) this.recordFailure(address);
      });
      next();
    };
  }

  /** Expired windows go first; if none, the oldest window (a full map under a spray of addresses). */
  private dropOldest(now: number): void {
    for (const [address, window] of this.windows) {
      if (now - window.startedAt < this.options.windowMs) break;
      this.windows.delete(address);
    }
    if (this.windows.size >= MAX_ADDRESSES) {
      const oldest = this.windows.keys().next();
      if (oldest.done !== true) this.windows.delete(oldest.value);
    }
  }
}
