import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppError } from '@kandev/protocol';
import type { Logger } from '../logger';
import { newId } from '../store/row-values';
import { displayPrefix, generateApiToken, hashApiToken, sameHash } from './api-token-rules';
import { type ApiTokenRecord, ApiTokenStore } from './api-token-store';
import type { Database } from '../store/database';

/** How stale `last_used_at` may get before an authenticated request writes it again. */
export const LAST_USED_PRECISION_MS = 60_000;

export const API_TOKEN_FILE_NAME = 'api-token';
export const ADMIN_TOKEN_NAME = 'admin';

/** A token the operator configured (KANDEV_API_TOKEN or KANDEV_API_TOKEN_FILE): accepted, never stored. */
export interface ConfiguredApiToken {
  token: string;
  /** Where it came from, for the 401 message: the variable name, never the value. */
  source: string;
}

export interface CreatedApiToken extends ApiTokenRecord {
  /** The plaintext, returned once at creation and never again. */
  token: string;
}

/** Operator tokens: creation, listing, revocation, and the check every /api request goes through. */
export class ApiTokenService {
  private readonly store: ApiTokenStore;
  private readonly configuredHash: string | undefined;
  private tokenLocation: string;

  constructor(
    private readonly deps: { db: Database; clock: () => Date; logger: Logger; configured?: ConfiguredApiToken },
  ) {
    this.store = new ApiTokenStore(deps.db);
    this.configuredHash = deps.configured === undefined ? undefined : hashApiToken(deps.configured.token);
    this.tokenLocation = deps.configured?.source ?? 'an API token (POST /api/tokens)';
  }

  /** Where an operator finds a token: the file path or the variable name (for 401 messages). */
  get location(): string {
    return this.tokenLocation;
  }

  /**
   * At start: unless a token is configured, make sure `<dataDir>/api-token` holds an active token. A
   * file whose token is still active is reused; otherwise (first start, the file removed, or its token
   * revoked) a new 'admin' token is written there (0600, created so; never logged): whoever can read
   * the data dir is the operator. Returns the file path, or undefined when a configured token is in use.
   */
  async ensureAdminToken(dataDir: string): Promise<string | undefined> {
    if (this.deps.configured !== undefined) return undefined;
    const file = join(resolve(dataDir), API_TOKEN_FILE_NAME);
    this.tokenLocation = file;
    const existing = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
    if (existing !== '' && (await this.store.findActiveByHash(hashApiToken(existing))) !== undefined) return file;
    const created = await this.create(ADMIN_TOKEN_NAME);
    // The mode applies when the file is created; chmod covers a file left by an earlier token.
    writeFileSync(file, `${created.token}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    this.deps.logger.info({ file, prefix: created.prefix }, 'admin API token written');
    return file;
  }

  async create(name: string): Promise<CreatedApiToken> {
    const token = generateApiToken();
    const record: ApiTokenRecord = {
      id: newId(),
      name,
      prefix: displayPrefix(token),
      createdAt: this.deps.clock().toISOString(),
      lastUsedAt: null,
    };
    await this.store.insert(record, hashApiToken(token));
    return { ...record, token };
  }

  list(): Promise<ApiTokenRecord[]> {
    return this.store.listActive();
  }

  async revoke(id: string): Promise<void> {
    if (!(await this.store.revoke(id, this.deps.clock().toISOString()))) {
      throw new AppError('not_found', `API token ${id} not found`);
    }
  }

  /** True for the configured token or an active stored one (whose last use is recorded). */
  async authenticate(token: string): Promise<boolean> {
    const hash = hashApiToken(token);
    if (this.configuredHash !== undefined && sameHash(hash, this.configuredHash)) return true;
    const found = await this.store.findActiveByHash(hash);
    if (found === undefined || !sameHash(hash, found.tokenHash)) return false;
    const now = this.deps.clock();
    // last_used_at answers "is this token still in use?": a minute's precision is plenty, and it
    // spares every request (each console re-read, each event stream) a write.
    if (found.lastUsedAt === null || now.getTime() - Date.parse(found.lastUsedAt) >= LAST_USED_PRECISION_MS) {
      await this.store.touch(found.id, now.toISOString());
    }
    return true;
  }
}
