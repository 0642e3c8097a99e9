import { AppError, normalizeProvider, type Provider } from '@kandev/protocol';
import type { SecretBox } from '../../platform/secrets/secret-box';
import { toIsoString } from '../../platform/store/row-values';
import type { CredentialSummary, WorkspaceCredential } from './workspace-credential';
import type { Sql } from '../../platform/store/sql';

interface SummaryRow {
  workspace_id: string;
  provider: string;
  username: string | null;
  base_url: string | null;
  created_at: unknown;
  updated_at: unknown;
}

/** Every column but the token: reads never select it. */
const SUMMARY_COLUMNS = ['workspace_id', 'provider', 'username', 'base_url', 'created_at', 'updated_at'] as const;

function fromRow(row: SummaryRow): CredentialSummary {
  const provider = normalizeProvider(row.provider);
  if (provider === null) throw new AppError('internal', 'workspace_credentials holds an unknown provider');
  return {
    workspaceId: row.workspace_id,
    provider,
    username: row.username,
    baseUrl: row.base_url ?? null,
    createdAt: toIsoString(row.created_at),
    updatedAt: toIsoString(row.updated_at),
  };
}

/**
 * Provider credentials per workspace. The token is sealed (AES-256-GCM, secrets/) before it reaches
 * the database and opened only by findSecret. Database errors on writes are replaced by a generic one with no
 * cause: a driver message can quote the statement's values, and the token is one of them.
 */
export class WorkspaceCredentialStore {
  constructor(
    private readonly db: Sql,
    private readonly secrets: SecretBox,
  ) {}

  /** Inserts or replaces the workspace's credential for the provider (created_at kept on replace). */
  async upsert(credential: WorkspaceCredential): Promise<void> {
    const token = this.secrets.seal(credential.token);
    try {
      await this.db('workspace_credentials')
        .insert({
          workspace_id: credential.workspaceId,
          provider: credential.provider,
          token,
          username: credential.username,
          base_url: credential.baseUrl,
          created_at: credential.createdAt,
          updated_at: credential.updatedAt,
        })
        .onConflict(['workspace_id', 'provider'])
        .merge(['token', 'username', 'base_url', 'updated_at']);
    } catch {
      throw new AppError('internal', 'storing the workspace credentials failed');
    }
  }

  async find(workspaceId: string, provider: Provider): Promise<CredentialSummary | undefined> {
    const row = await this.db<SummaryRow>('workspace_credentials')
      .where({ workspace_id: workspaceId, provider })
      .first(...SUMMARY_COLUMNS);
    return row === undefined ? undefined : fromRow(row);
  }

  async list(workspaceId: string): Promise<CredentialSummary[]> {
    const rows = await this.db<SummaryRow>('workspace_credentials')
      .where({ workspace_id: workspaceId })
      .orderBy('provider')
      .select(...SUMMARY_COLUMNS);
    return rows.map(fromRow);
  }

  /**
   * The credential WITH its token: only for the code that calls the provider (the GitLab client
   * factory). Nothing that renders a response or a log line may use it.
   */
  async findSecret(workspaceId: string, provider: Provider): Promise<WorkspaceCredential | undefined> {
    const row = await this.db<SummaryRow & { token: string }>('workspace_credentials')
      .where({ workspace_id: workspaceId, provider })
      .first(...SUMMARY_COLUMNS, 'token');
    return row === undefined ? undefined : { ...fromRow(row), token: this.secrets.open(row.token) };
  }

  /** False when nothing was stored. */
  async remove(workspaceId: string, provider: Provider): Promise<boolean> {
    return (await this.db('workspace_credentials').where({ workspace_id: workspaceId, provider }).del()) > 0;
  }
}
