import { GithubError } from './github-client';
import { EtagCache } from './etag-cache';
import { githubWaitMs } from './pr-poller';

describe('GitHub conditional requests and waits', () => {
  test('the ETag cache is bounded: the least recently written answer goes first', () => {
    const cache = new EtagCache(2);
    cache.set('a', { etag: '"1"', body: 1 });
    cache.set('b', { etag: '"2"', body: 2 });
    cache.set('a', { etag: '"3"', body: 3 }); // rewritten: now the newest
    cache.set('c', { etag: '"4"', body: 4 });
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual({ etag: '"3"', body: 3 });
    expect(cache.get('c')).toEqual({ etag: '"4"', body: 4 });
  });

  test('the wait GitHub asked for: Retry-After, else until the rate limit resets (by the given clock)', () => {
    const now = 1_000_000;
    expect(githubWaitMs(new GithubError('rate_limited', 'x', 429, 120_000), now)).toBe(120_000);
    expect(githubWaitMs(new GithubError('rate_limited', 'x', 403, null, now + 300_000), now)).toBe(300_000);
    expect(githubWaitMs(new GithubError('rate_limited', 'x', 403, null, now - 5), now)).toBe(0);
    expect(githubWaitMs(new GithubError('server', 'x', 502), now)).toBeNull();
    expect(githubWaitMs(new Error('x'), now)).toBeNull();
  });
});
