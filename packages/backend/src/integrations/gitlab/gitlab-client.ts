import type { z } from 'zod';
import {
  failureOf,
  type FetchLike,
  parseRetryAfter,
  ProviderCallError,
  type ProviderFailure,
} from '../provider-http/provider-http';
import {
  GitlabMergeRequestSchema,
  GitlabUserSchema,
  type GitlabUser,
  type MrObservation,
  toObservation,
} from './gitlab-api';

export const GITLAB_DEFAULT_BASE_URL = 'https://gitlab.com';

export type { FetchLike } from '../provider-http/provider-http';
export { parseRetryAfter } from '../provider-http/provider-http';

/** How a failed GitLab call failed: enough to decide on a backoff, never the token or the URL's secrets. */
export type GitlabFailure = ProviderFailure;

/** A GitLab call that failed. The message names the call and the status only. */
export class GitlabError extends ProviderCallError {
  override name = 'GitlabError';
}

export interface GitlabClientOptions {
  baseUrl: string;
  token: string;
  timeoutMs?: number;
  fetch?: FetchLike;
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
