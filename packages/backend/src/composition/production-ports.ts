import type { Config } from './config';
import { AgentctlClients } from '../runtime/agentctl/agentctl-client';
import { AgentctlEventHub } from '../runtime/agentctl/agentctl-event-hub';
import { createExecutors } from './create-executors';
import type { FetchLike } from '../integrations/gitlab/gitlab-client';
import { createGitlabVerifier, gitlabClientFor } from '../integrations/gitlab/gitlab-credentials';
import type { Logger } from '../platform/logger/logger';
import { EtagCache } from '../integrations/github/etag-cache';
import { createGithubVerifier, githubClientFor } from '../integrations/github/github-credentials';
import type { AgentctlPort, GithubPort, GitlabPort } from './backend-ports';

/**
 * The real agentctls: every configured executor, and one gRPC channel per agentctl (closed when it goes).
 * `localReplica`: this replica's id when replicas share the database (createExecutors).
 */
export function createAgentctlPort(
  config: Config,
  logger: Logger,
  localReplica?: string,
): AgentctlPort & { clients: AgentctlClients } {
  const events = new AgentctlEventHub();
  const executors = createExecutors(config, logger, events, localReplica);
  const clients = new AgentctlClients(config.agentctl.callTimeoutMs);
  events.subscribe({ down: (_slot, endpoint) => clients.close(endpoint) });
  return { executors, clients, events };
}

/** The real GitLab: each workspace's own token and base URL; a token is checked once before it is stored. */
export function createGitlabPort(fetch?: FetchLike): GitlabPort {
  return { clientFor: (credential) => gitlabClientFor(credential, fetch), verify: createGitlabVerifier(fetch) };
}

/**
 * The real GitHub at `apiUrl` (KANDEV_GITHUB_API_URL): each workspace's own token, one ETag cache
 * across polls (scoped per token); a token is checked once before it is stored.
 */
export function createGithubPort(apiUrl: string, fetch?: FetchLike): GithubPort {
  const cache = new EtagCache();
  return {
    clientFor: (credential) => githubClientFor(apiUrl, credential, { fetch, cache }),
    verify: createGithubVerifier(apiUrl, fetch),
  };
}
