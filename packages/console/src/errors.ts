import { ApiError } from './api';

/**
 * A failure in the operator's words: the browser's own "Failed to fetch" (the backend is down or the
 * network is) and the HTTP status say what happened; the backend's message says why.
 */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    // The client's own: no answer came at all.
    if (error.status === 0) return 'The backend is unreachable: is it running? The page retries by itself.';
    if (error.status === 401)
      return 'You are signed out (the token was revoked or the backend restarted with another one).';
    if (error.status === 403) return `Refused: ${error.message}`;
    if (error.status === 404) return `Not found: ${error.message}`;
    if (error.status === 409) return `Not possible now: ${error.message}`;
    if (error.status === 502 || error.status === 504)
      return 'The backend is unreachable (its proxy could not reach it).';
    if (error.status >= 500) return `The backend failed: ${error.message}`;
    return error.message;
  }
  // fetch rejects with a TypeError when no answer came at all.
  if (error instanceof TypeError) return 'The backend is unreachable: is it running? The page retries by itself.';
  if (error instanceof SyntaxError) return 'The backend answered something that is not JSON (a proxy in between?).';
  return error instanceof Error ? error.message : String(error);
}
