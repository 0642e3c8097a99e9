import type { Request } from 'express';
import { AuthFailureLimit } from './auth-failure-limit';

/** A request as the limiter reads it: the socket's peer and the headers. */
const request = (remoteAddress: string, headers: Record<string, string> = {}): Request =>
  ({ socket: { remoteAddress }, get: (name: string) => headers[name.toLowerCase()] }) as unknown as Request;

describe('AuthFailureLimit', () => {
  let now = 0;
  const limit = (trustedProxies: string[] = []) =>
    new AuthFailureLimit({ maxFailures: 3, windowMs: 60_000, trustedProxies, now: () => now });

  beforeEach(() => {
    now = 1_000;
  });

  test('the Nth failure in the window refuses the address until the window ends; others are unaffected', () => {
    const limiter = limit();
    limiter.recordFailure('10.0.0.1');
    now += 10_000;
    limiter.recordFailure('10.0.0.1');
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBeUndefined();
    limiter.recordFailure('10.0.0.1');
    // 50 s of the window (from the first failure) are left.
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(50);
    expect(limiter.retryAfterSeconds('10.0.0.2')).toBeUndefined();
    now += 49_500;
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(1);
    now += 500;
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBeUndefined();
    // A fresh window: the count starts over.
    limiter.recordFailure('10.0.0.1');
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBeUndefined();
  });

  test('failures spread beyond the window never add up', () => {
    const limiter = limit();
    for (let i = 0; i < 10; i += 1) {
      limiter.recordFailure('10.0.0.1');
      limiter.recordFailure('10.0.0.1');
      now += 60_000;
    }
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBeUndefined();
  });

  test('the client is the socket peer; X-Forwarded-For counts only from a listed proxy', () => {
    const spoofed = { 'x-forwarded-for': '203.0.113.9' };
    expect(limit().clientAddress(request('::ffff:127.0.0.1', spoofed))).toBe('127.0.0.1');
    const proxied = limit(['10.0.0.5', '10.0.0.6']);
    expect(proxied.clientAddress(request('10.0.0.7', spoofed))).toBe('10.0.0.7');
    // The nearest hop that is not a trusted proxy; what the client wrote before it is not believed.
    const chain = { 'x-forwarded-for': '198.51.100.1, 203.0.113.9, 10.0.0.6' };
    expect(proxied.clientAddress(request('10.0.0.5', chain))).toBe('203.0.113.9');
    expect(proxied.clientAddress(request('10.0.0.5'))).toBe('10.0.0.5');
  });
});
