import type { CredentialVerifier } from '../../catalogue/credentials/workspace-credential-service';
import { tokenVerifier } from '../provider-http/provider-http';
import { type FetchLike, GITLAB_DEFAULT_BASE_URL, GitlabClient } from './gitlab-client';

/** The GitLab instance of a stored credential: its own base URL, else gitlab.com. Never an ambient one. */
export function gitlabClientFor(
  credential: { token: string; baseUrl: string | null },
  fetch?: FetchLike,
): GitlabClient {
  return new GitlabClient({ baseUrl: credential.baseUrl ?? GITLAB_DEFAULT_BASE_URL, token: credential.token, fetch });
}

/** Saving a GitLab token checks it once with GET /user; the username GitLab reports is what is stored. */
export function createGitlabVerifier(fetch?: FetchLike): CredentialVerifier {
  return tokenVerifier(
    'GitLab',
    async (token, baseUrl) => (await gitlabClientFor({ token, baseUrl }, fetch).currentUser()).username,
  );
}
