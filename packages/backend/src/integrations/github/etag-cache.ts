// Conditional requests (https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate):
// a GET sends the ETag of its last 200 as If-None-Match; a 304 costs no rate limit and the cached body
// stands for the answer. In memory: a restart reads everything once more, unconditionally.

export interface CachedAnswer {
  etag: string;
  body: unknown;
}

export interface ConditionalCache {
  get(key: string): CachedAnswer | undefined;
  set(key: string, answer: CachedAnswer): void;
}

/** Bounded: past `max` entries the least recently written one goes. */
export class EtagCache implements ConditionalCache {
  private readonly entries = new Map<string, CachedAnswer>();

  constructor(private readonly max = 2_000) {}

  get(key: string): CachedAnswer | undefined {
    return this.entries.get(key);
  }

  set(key: string, answer: CachedAnswer): void {
    this.entries.delete(key);
    this.entries.set(key, answer);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}
