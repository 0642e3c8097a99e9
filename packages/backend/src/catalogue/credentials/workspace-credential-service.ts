import { AppError, type Provider } from '@kandev/protocol';
import type { Stores, UnitOfWork } from '../../platform/store/unit-of-work';
import { checkGitlabBaseUrl, type GitlabHostPolicy } from './gitlab-base-url';
import type { CredentialSummary, PutCredentialBody } from './workspace-credential';

async function requireWorkspace(stores: Stores, workspaceId: string): Promise<void> {
  if ((await stores.workspaces.findById(workspaceId)) === undefined) {
    throw new AppError('not_found', `workspace ${workspaceId} not found`);
  }
}

/**
 * Checks a token with the provider before it is saved and resolves the account's username (GitLab:
 * GET /user). Rejects with an AppError that never quotes the token.
 */
export type CredentialVerifier = (token: string, baseUrl: string | null) => Promise<{ username: string }>;

/** Per-workspace provider credentials. Returns summaries only: the token is never handed back. */
export class WorkspaceCredentialService {
  constructor(
    private readonly deps: {
      uow: UnitOfWork;
      clock: () => Date;
      /** Per provider; a provider without one stores the token unverified, with the given username. */
      verifiers?: Partial<Record<Provider, CredentialVerifier>>;
      /** Where a GitLab credential's base_url may point (checked before anything is called or stored). */
      gitlabHosts: GitlabHostPolicy;
    },
  ) {}

  /**
   * Stores or replaces the workspace's credential for the provider. With a verifier, the token is
   * checked once here and the username the provider reports is what is stored (the MR lifecycle
   * evaluator reads it instead of asking the provider on every evaluation).
   */
  async put(workspaceId: string, provider: Provider, body: PutCredentialBody): Promise<CredentialSummary> {
    if (provider === 'github' && body.base_url !== undefined) {
      // GitHub's API root is the operator's (KANDEV_GITHUB_API_URL), so no credential can redirect a token.
      throw new AppError('invalid_argument', 'base_url is for GitLab credentials; GitHub uses KANDEV_GITHUB_API_URL');
    }
    if (provider === 'gitlab' && body.base_url !== undefined) {
      const verdict = checkGitlabBaseUrl(body.base_url, this.deps.gitlabHosts);
      if (!verdict.ok) throw new AppError('invalid_argument', verdict.reason);
    }
    const verify = this.deps.verifiers?.[provider];
    await requireWorkspace(this.deps.uow.read, workspaceId); // before calling out: a 404 needs no token check
    const username =
      verify === undefined ? (body.username ?? null) : (await verify(body.token, body.base_url ?? null)).username;
    const now = this.deps.clock().toISOString();
    return this.deps.uow.transaction(async (stores) => {
      await requireWorkspace(stores, workspaceId);
      await stores.workspaceCredentials.upsert({
        workspaceId,
        provider,
        token: body.token,
        username,
        baseUrl: body.base_url ?? null,
        createdAt: now,
        updatedAt: now,
      });
      const stored = await stores.workspaceCredentials.find(workspaceId, provider);
      if (stored === undefined) throw new AppError('internal', 'stored workspace credentials are missing');
      // Which credential changed, never the token.
      await stores.events.append({
        type: 'credential.set',
        taskId: null,
        sessionId: null,
        workspaceId,
        data: { workspace_id: workspaceId, provider, username },
        at: now,
      });
      return stored;
    });
  }

  async list(workspaceId: string): Promise<CredentialSummary[]> {
    return this.deps.uow.transaction(async (stores) => {
      await requireWorkspace(stores, workspaceId);
      return stores.workspaceCredentials.list(workspaceId);
    });
  }

  /** 404 when the workspace has no credential for the provider. */
  async remove(workspaceId: string, provider: Provider): Promise<void> {
    await this.deps.uow.transaction(async (stores) => {
      await requireWorkspace(stores, workspaceId);
      if (!(await stores.workspaceCredentials.remove(workspaceId, provider))) {
        throw new AppError('not_found', `workspace ${workspaceId} has no ${provider} credentials`);
      }
      await stores.events.append({
        type: 'credential.removed',
        taskId: null,
        sessionId: null,
        workspaceId,
        data: { workspace_id: workspaceId, provider },
        at: this.deps.clock().toISOString(),
      });
    });
  }
}
