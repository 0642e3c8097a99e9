import { AppError } from '@kandev/protocol';
import type { CredentialVerifier } from '../provider-automation/workspace-credential-service';
import { type FetchLike, GITLAB_DEFAULT_BASE_URL, GitlabClient, GitlabError } from './gitlab-client';

/** The GitLab instance of a stored credential: its own base URL, else gitlab.com. Never an ambient one. */
export function gitlabClientFor(
  credential: { token: string; baseUrl: string | null },
  fetch?: FetchLike,
): GitlabClient {
  return new GitlabClient({ baseUrl: credential.baseUrl ?? GITLAB_DEFAULT_BASE_URL, token: credential.token, fetch });
}

/** Saving a GitLab token checks it once with GET /user; the username GitLab reports is what is stored. */
export function createGitlabVerifier(fetch?: FetchLike): CredentialVerifier {
  return async (token, baseUrl) => {
    try {
      const user = await gitlabClientFor({ token, baseUrl }, fetch).currentUser();
      return { username: user.username };
    } catch (error) {
      if (error instanceof GitlabError && (error.failure === 'unauthorized' || error.failure === 'forbidden')) {
        throw new AppError('invalid_argument', `GitLab rejected the token (${error.status ?? 'no status'})`);
      }
      if (error instanceof GitlabError) {
        throw new AppError('unavailable', `the GitLab token could not be verified: ${error.message}`);
      }
      throw error;
    }
  };
}
