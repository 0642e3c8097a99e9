import type { CredentialVerifier } from '../../catalogue/credentials/workspace-credential-service';
import { type FetchLike, tokenVerifier } from '../provider-http/provider-http';
import type { ConditionalCache } from './etag-cache';
import { GithubClient } from './github-client';

/** A client for a workspace's stored token against the configured API (KANDEV_GITHUB_API_URL). */
export function githubClientFor(
  apiUrl: string,
  credential: { token: string },
  options: { fetch?: FetchLike; cache?: ConditionalCache } = {},
): GithubClient {
  return new GithubClient({ apiUrl, token: credential.token, fetch: options.fetch, cache: options.cache });
}

/** Saving a GitHub token checks it once with GET /user; the login GitHub reports is what is stored. */
export function createGithubVerifier(apiUrl: string, fetch?: FetchLike): CredentialVerifier {
  return tokenVerifier(
    'GitHub',
    async (token) => (await githubClientFor(apiUrl, { token }, { fetch }).currentUser()).login,
  );
}
