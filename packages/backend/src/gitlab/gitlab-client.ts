import type { z } from 'zod';
import { AppError, type ErrorCode } from '@kandev/protocol';
import {
  GitlabMergeRequestSchema,
  GitlabUserSchema,
  type GitlabUser,
  type MrObservation,
  toObservation,
} from './gitlab-api';

export const GITLAB_DEFAULT_BASE_URL = 'https://gitlab.com';

/** How a failed GitLab call failed: enough to decide on a backoff, never the token or the URL's secrets. */
export type GitlabFailure =
  'unauthorized' | 'forbidden' | 'not_found' | 'rate_limited' | 'server' | 'network' | 'bad_response';

const FAILURE_CODE: Record<GitlabFailure, ErrorCode> = {
  unauthorized: 'unauthenticated',
  forbidden: 'failed_precondition',
  not_found: 'not_found',
  rate_limited: 'unavailable',
  server: 'unavailable',
  network: 'unavailable',
  bad_response: 'unavailable',
};

/** A GitLab call that failed. The message names the call and the status only. */
export class GitlabError extends AppError {
  constructor(
    readonly failure: GitlabFailure,
    message: string,
    readonly status: number | null,
    /** From Retry-After on a 429 (or 503), when GitLab sent one. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(FAILURE_CODE[failure], message, { failure, status, retry_after_ms: retryAfterMs });
    this.name = 'GitlabError';
  }
}

export type FetchLike = (
  url: string,
  init: { headers: Record<string, string>; signal: AbortSignal },
) => Promise<Response>;

export interface GitlabClientOptions {
  baseUrl: string;
  token: string;
  timeoutMs?: number;
  fetch?: FetchLike;
}

/** Retry-After is seconds or an HTTP date; anything else is ignored. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function failureOf(status: number): GitlabFailure {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  return 'server';
}

/** GitLab REST v4 with a personal access token, against gitlab.com or a self-managed instance. */
export class GitlabClient {
  private readonly apiBase: string;
  private readonly fetch: FetchLike;

  constructor(private readonly options: GitlabClientOptions) {
    this.apiBase = `${options.baseUrl.replace(/\/+$/, '')}/api/v4`;
    this.fetch = options.fetch ?? ((url, init) => fetch(url, init));
  }

  /** The token's user (GET /user): how a saved token is verified and its username learned. */
  currentUser(): Promise<GitlabUser> {
    return this.get('/user', 'reading the GitLab user', GitlabUserSchema);
  }

  /** One read of an MR (GET /projects/:id/merge_requests/:iid), the project addressed by its path. */
  async mergeRequest(projectPath: string, iid: number): Promise<MrObservation> {
    const path = `/projects/${encodeURIComponent(projectPath)}/merge_requests/${iid}`;
    return toObservation(await this.get(path, `reading merge request !${iid}`, GitlabMergeRequestSchema));
  }

  private async get<S extends z.ZodType>(path: string, what: string, schema: S): Promise<z.output<S>> {
    let response: Response;
    try {
      response = await this.fetch(`${this.apiBase}${path}`, {
        headers: { 'PRIVATE-TOKEN': this.options.token, accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch {
      // The cause is dropped on purpose: a fetch error can quote the request, headers included.
      throw new GitlabError('network', `${what} failed: GitLab is unreachable`, null);
    }
    if (!response.ok) {
      await response.body?.cancel();
      const failure = failureOf(response.status);
      const retryAfter =
        response.status === 429 || response.status === 503
          ? parseRetryAfter(response.headers.get('retry-after'), Date.now())
          : null;
      throw new GitlabError(failure, `${what} failed: GitLab answered ${response.status}`, response.status, retryAfter);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new GitlabError('bad_response', `${what} failed: GitLab sent no JSON`, response.status);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success)
      throw new GitlabError('bad_response', `${what} failed: unexpected response shape`, response.status);
    return parsed.data;
  }
}
