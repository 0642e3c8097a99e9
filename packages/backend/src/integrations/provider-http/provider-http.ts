import { AppError, type ErrorCode } from '@kandev/protocol';

// What the GitLab and GitHub REST clients share: the fetch seam, how a failed call is classified and
// reported (never the token or the URL's secrets), and Retry-After parsing. Pure but for the type of
// `fetch`.

export type FetchLike = (
  url: string,
  init: { method?: string; headers: Record<string, string>; body?: string; signal: AbortSignal },
) => Promise<Response>;

/** How a failed provider call failed: enough to decide on a backoff. */
export type ProviderFailure =
  'unauthorized' | 'forbidden' | 'not_found' | 'rate_limited' | 'refused' | 'server' | 'network' | 'bad_response';

const FAILURE_CODE: Record<ProviderFailure, ErrorCode> = {
  unauthorized: 'unauthenticated',
  forbidden: 'failed_precondition',
  not_found: 'not_found',
  rate_limited: 'unavailable',
  refused: 'failed_precondition',
  server: 'unavailable',
  network: 'unavailable',
  bad_response: 'unavailable',
};

/** A provider call that failed. The message names the call and the status only. */
export class ProviderCallError extends AppError {
  constructor(
    readonly failure: ProviderFailure,
    message: string,
    readonly status: number | null,
    /** How long the provider asked us to wait (Retry-After, or a rate-limit reset), when it said. */
    readonly retryAfterMs: number | null = null,
    /** When a spent rate limit resets (epoch ms; GitHub's x-ratelimit-reset), when the provider said. */
    readonly resetAtMs: number | null = null,
  ) {
    super(FAILURE_CODE[failure], message, { failure, status, retry_after_ms: retryAfterMs });
    this.name = 'ProviderCallError';
  }
}

/** Retry-After is seconds or an HTTP date; anything else is ignored. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export function failureOf(status: number): ProviderFailure {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 405 || status === 409 || status === 422) return 'refused';
  return 'server';
}

/**
 * Saving a token checks it once with the provider's "who am I" call and keeps the name it reports. A
 * rejected token is a 400 that names the status only; an unreachable provider is a 503; nothing is stored.
 */
export function tokenVerifier(
  provider: string,
  whoAmI: (token: string, baseUrl: string | null) => Promise<string>,
): (token: string, baseUrl: string | null) => Promise<{ username: string }> {
  return async (token, baseUrl) => {
    try {
      return { username: await whoAmI(token, baseUrl) };
    } catch (error) {
      if (error instanceof ProviderCallError && (error.failure === 'unauthorized' || error.failure === 'forbidden')) {
        throw new AppError('invalid_argument', `${provider} rejected the token (${error.status ?? 'no status'})`);
      }
      if (error instanceof ProviderCallError) {
        throw new AppError('unavailable', `the ${provider} token could not be verified: ${error.message}`);
      }
      throw error;
    }
  };
}
