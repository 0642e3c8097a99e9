import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { failureOf, type FetchLike, parseRetryAfter, ProviderCallError } from '../provider-http/provider-http';
import {
  type CheckRun,
  GithubCheckRunsSchema,
  GithubMergeSchema,
  GithubPullSchema,
  GithubReviewsSchema,
  type GithubUser,
  GithubUserSchema,
  latestVerdicts,
  type PrObservation,
  pullState,
  type ReviewVerdict,
} from './github-api';
import { type ConditionalCache, EtagCache } from './etag-cache';

export const GITHUB_DEFAULT_API_URL = 'https://api.github.com';

/** A GitHub call that failed. The message names the call and the status only (a refusal: GitHub's reason). */
export class GithubError extends ProviderCallError {
  override name = 'GithubError';
}

export interface GithubClientOptions {
  /** The REST root: https://api.github.com, or GitHub Enterprise Server's https://host/api/v3. */
  apiUrl: string;
  token: string;
  timeoutMs?: number;
  fetch?: FetchLike;
  /** ETags and bodies of earlier GETs; default: one of this client's own. */
  cache?: ConditionalCache;
}

interface Call {
  what: string;
  method?: 'GET' | 'PUT';
  body?: unknown;
}

/** One read of a PR and, when asked, its reviews and the head's check runs. */
export interface PullRead {
  observation: PrObservation;
  /** Every GET answered 304: nothing changed since the last read (and no rate limit was spent). */
  notModified: boolean;
}

/** GitHub REST v3 with a token, fetch + zod: five endpoints need no Octokit (docs/github.md). */
export class GithubClient {
  private readonly apiBase: string;
  private readonly fetch: FetchLike;
  private readonly cache: ConditionalCache;
  private readonly cacheScope: string;

  constructor(private readonly options: GithubClientOptions) {
    this.apiBase = options.apiUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? ((url, init) => fetch(url, init));
    this.cache = options.cache ?? new EtagCache();
    // GitHub's ETags vary with the token: one token's cached body is never served to another.
    this.cacheScope = createHash('sha256').update(options.token).digest('hex').slice(0, 16);
  }

  /** The token's user (GET /user): how a saved token is verified and its login learned. */
  async currentUser(): Promise<GithubUser> {
    return (await this.request('/user', { what: 'reading the GitHub user' }, GithubUserSchema)).body;
  }

  async pullRequest(
    owner: string,
    repo: string,
    number: number,
    also: { reviews: boolean; checks: boolean },
  ): Promise<PullRead> {
    const base = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
    const pull = await this.request(
      `${base}/pulls/${number}`,
      { what: `reading pull request #${number}` },
      GithubPullSchema,
    );
    let notModified = pull.notModified;
    let reviews: ReviewVerdict[] | null = null;
    if (also.reviews) {
      const read = await this.request(
        `${base}/pulls/${number}/reviews?per_page=100`,
        { what: `reading the reviews of pull request #${number}` },
        GithubReviewsSchema,
      );
      reviews = latestVerdicts(read.body);
      notModified &&= read.notModified;
    }
    let checks: CheckRun[] | null = null;
    if (also.checks) {
      const read = await this.request(
        `${base}/commits/${encodeURIComponent(pull.body.head.sha)}/check-runs?per_page=100`,
        { what: `reading the check runs of pull request #${number}` },
        GithubCheckRunsSchema,
      );
      checks = read.body.check_runs.map((r) => ({ name: r.name, status: r.status, conclusion: r.conclusion ?? null }));
      notModified &&= read.notModified;
    }
    const observation: PrObservation = {
      state: pullState(pull.body),
      headSha: pull.body.head.sha,
      mergeable: pull.body.mergeable ?? null,
      mergeableState: pull.body.mergeable_state ?? null,
      requestedReviewers: pull.body.requested_reviewers.map((r) => r.login),
      reviews,
      checks,
    };
    return { observation, notModified };
  }

  /** PUT /pulls/:n/merge at the head we evaluated (GitHub refuses with 409 when the head moved). */
  async merge(owner: string, repo: string, number: number, sha: string): Promise<void> {
    const path = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/pulls/${number}/merge`;
    const call: Call = { what: `merging pull request #${number}`, method: 'PUT', body: { sha } };
    const { body } = await this.request(path, call, GithubMergeSchema);
    if (!body.merged) throw new GithubError('refused', `${call.what} failed: GitHub did not merge it`, 200);
  }

  private async request<S extends z.ZodType>(
    path: string,
    call: Call,
    schema: S,
  ): Promise<{ body: z.output<S>; notModified: boolean }> {
    const url = `${this.apiBase}${path}`;
    const method = call.method ?? 'GET';
    const cacheKey = `${this.cacheScope} ${url}`;
    const cached = method === 'GET' ? this.cache.get(cacheKey) : undefined;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.token}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'kandev',
    };
    if (cached !== undefined) headers['if-none-match'] = cached.etag;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetch(url, {
        method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch {
      // The cause is dropped on purpose: a fetch error can quote the request, headers included.
      throw new GithubError('network', `${call.what} failed: GitHub is unreachable`, null);
    }
    if (response.status === 304 && cached !== undefined) {
      await response.body?.cancel();
      return { body: this.parse(cached.body, schema, call, 304), notModified: true };
    }
    if (!response.ok) throw await failure(response, call.what);
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new GithubError('bad_response', `${call.what} failed: GitHub sent no JSON`, response.status);
    }
    const parsed = this.parse(body, schema, call, response.status);
    const etag = response.headers.get('etag');
    if (method === 'GET' && etag !== null) this.cache.set(cacheKey, { etag, body });
    return { body: parsed, notModified: false };
  }

  private parse<S extends z.ZodType>(body: unknown, schema: S, call: Call, status: number): z.output<S> {
    const parsed = schema.safeParse(body);
    if (!parsed.success)
      throw new GithubError('bad_response', `${call.what} failed: unexpected response shape`, status);
    return parsed.data;
  }
}

/**
 * A failed answer. 403/429 with `x-ratelimit-remaining: 0` is the spent primary rate limit (wait for
 * `x-ratelimit-reset`); a `Retry-After` is a secondary limit. A refusal (405/409/422) keeps GitHub's
 * reason, which names the PR's problem and never the request.
 */
async function failure(response: Response, what: string): Promise<GithubError> {
  const { status, headers } = response;
  const message = status === 405 || status === 409 || status === 422 ? await reasonOf(response) : null;
  if (message === null) await response.body?.cancel();
  const retryAfterMs = parseRetryAfter(headers.get('retry-after'), Date.now());
  const reset = Number(headers.get('x-ratelimit-reset'));
  const spent = headers.get('x-ratelimit-remaining') === '0' && Number.isFinite(reset) && reset > 0;
  if ((status === 403 || status === 429) && (spent || retryAfterMs !== null)) {
    const text = `${what} failed: GitHub rate limit (${status})`;
    return new GithubError('rate_limited', text, status, retryAfterMs, spent ? reset * 1000 : null);
  }
  const suffix = message === null ? '' : `: ${message}`;
  return new GithubError(failureOf(status), `${what} failed: GitHub answered ${status}${suffix}`, status);
}

async function reasonOf(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { message?: unknown };
    return typeof body.message === 'string' ? body.message.slice(0, 200) : null;
  } catch {
    return null;
  }
}
