import { AppError } from '@kandev/protocol';
import { z } from 'zod';
import type { Database } from '../store/database';
import { parseJsonColumn, toIsoString, toNullableIsoString } from '../store/row-values';
import { type Role, RoleSchema } from '../access/principal';

export interface ApiTokenRecord {
  id: string;
  name: string;
  prefix: string;
  role: Role;
  /** Workspace ids the token is limited to; null: every workspace. */
  workspaces: string[] | null;
  /** The token that minted this one; null for the admin token file (and tokens older than roles). */
  createdBy: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

interface ApiTokenRow {
  id: string;
  name: string;
  prefix: string;
  role: string;
  workspaces: unknown;
  created_by: string | null;
  created_at: unknown;
  last_used_at: unknown;
}

const TABLE = 'api_tokens';
const COLUMNS = ['id', 'name', 'prefix', 'role', 'workspaces', 'created_by', 'created_at', 'last_used_at'] as const;
const WorkspacesColumnSchema = z.array(z.string());

function parseRole(value: string): Role {
  const role = RoleSchema.safeParse(value);
  if (!role.success) throw new AppError('internal', 'column api_tokens.role holds unexpected data');
  return role.data;
}

function toRecord(row: ApiTokenRow): ApiTokenRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    role: parseRole(row.role),
    workspaces:
      row.workspaces === null ? null : parseJsonColumn(WorkspacesColumnSchema, row.workspaces, 'api_tokens.workspaces'),
    createdBy: row.created_by,
    createdAt: toIsoString(row.created_at),
    lastUsedAt: toNullableIsoString(row.last_used_at),
  };
}

/** The api_tokens table. Hashes go in and are matched; they never come back out. */
export class ApiTokenStore {
  constructor(private readonly db: Database) {}

  async insert(record: ApiTokenRecord, tokenHash: string): Promise<void> {
    await this.db(TABLE).insert({
      id: record.id,
      name: record.name,
      prefix: record.prefix,
      role: record.role,
      workspaces: record.workspaces === null ? null : JSON.stringify(record.workspaces),
      created_by: record.createdBy,
      token_hash: tokenHash,
      created_at: record.createdAt,
      last_used_at: record.lastUsedAt,
    });
  }

  /** Active (not revoked) tokens, oldest first. */
  async listActive(): Promise<ApiTokenRecord[]> {
    const rows = (await this.db(TABLE)
      .select(...COLUMNS)
      .whereNull('revoked_at')
      .orderBy([{ column: 'created_at' }, { column: 'id' }])) as ApiTokenRow[];
    return rows.map(toRecord);
  }

  /** The active token with this id. */
  async findActive(id: string): Promise<ApiTokenRecord | undefined> {
    const row = (await this.db(TABLE)
      .select(...COLUMNS)
      .where({ id })
      .whereNull('revoked_at')
      .first()) as ApiTokenRow | undefined;
    return row === undefined ? undefined : toRecord(row);
  }

  /** The active token with this hash (the lookup is by the unique index; the caller compares again). */
  async findActiveByHash(tokenHash: string): Promise<(ApiTokenRecord & { tokenHash: string }) | undefined> {
    const row = (await this.db(TABLE)
      .select(...COLUMNS, 'token_hash')
      .where({ token_hash: tokenHash })
      .whereNull('revoked_at')
      .first()) as (ApiTokenRow & { token_hash: string }) | undefined;
    return row === undefined ? undefined : { ...toRecord(row), tokenHash: row.token_hash };
  }

  async touch(id: string, at: string): Promise<void> {
    await this.db(TABLE).where({ id }).update({ last_used_at: at });
  }

  /** True when an active token was revoked. */
  async revoke(id: string, at: string): Promise<boolean> {
    const changed = await this.db(TABLE).where({ id }).whereNull('revoked_at').update({ revoked_at: at });
    return changed > 0;
  }
}
