import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { AppError } from '@kandev/protocol';
import type { Logger } from '../logger/logger';
import { newId } from '../store/row-values';
import { displayPrefix, generateApiToken, hashApiToken, sameHash } from './api-token-rules';
import { type ApiTokenRecord, ApiTokenStore } from './api-token-store';
import type { Database } from '../store/database';
import { TokenCheckCache } from './token-check-cache';

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

export interface ApiTokenServiceDeps {
  db: Database;
  clock: () => Date;
  logger: Logger;
  configured?: ConfiguredApiToken;
  /**
   * Other replicas share the database (PostgreSQL): a revocation answers once the checks they may
   * still trust have expired (token-check-cache.ts).
   */
  replicasShareTheDatabase?: boolean;
  /** Monotonic milliseconds (tests step it); default performance.now. */
  monotonic?: () => number;
  /** Waits `ms` (tests resolve it themselves); default a timer. */
  pause?: (ms: number) => Promise<void>;
  /**
   * The replicas' signals: a revocation is published (`token_revoked`, the token id) once committed,
   * and one published by any replica makes this one forget its check of that token at once.
   */
  signals?: TokenRevocationSignals;
}

/** The part of the replica signals token revocation uses. */
export interface TokenRevocationSignals {
  publish(name: 'token_revoked', payload: string): void;
  subscribe(name: 'token_revoked', listener: { signal(payload: string): void; resync(): void }): () => void;
}

/** Operator tokens: creation, listing, revocation, and the check every /api request goes through. */
export class ApiTokenService {
  private readonly store: ApiTokenStore;
  private readonly configuredHash: string | undefined;
  private readonly checks: TokenCheckCache;
  private tokenLocation: string;

  constructor(private readonly deps: ApiTokenServiceDeps) {
    this.store = new ApiTokenStore(deps.db);
    this.checks = new TokenCheckCache(deps.monotonic ?? (() => performance.now()));
    this.configuredHash = deps.configured === undefined ? undefined : hashApiToken(deps.configured.token);
    this.tokenLocation = deps.configured?.source ?? 'an API token (POST /api/tokens)';
    deps.signals?.subscribe('token_revoked', {
      signal: (tokenId) => this.checks.forget(tokenId),
      resync: () => undefined, // a missed revocation: trusted checks expire within TOKEN_CHECK_TTL_MS anyway
    });
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

  /**
   * Once this resolves no replica accepts the token: this one forgot it at once; where replicas share
   * the database, after the longest any of them trusts a check (TOKEN_CHECK_TTL_MS).
   */
  async revoke(id: string): Promise<void> {
    if (!(await this.store.revoke(id, this.deps.clock().toISOString()))) {
      throw new AppError('not_found', `API token ${id} not found`);
    }
    this.checks.forget(id);
    this.deps.signals?.publish('token_revoked', id);
    if (this.deps.replicasShareTheDatabase === true) await (this.deps.pause ?? delay)(this.checks.ttlMs);
  }

  /**
   * Whether `token` is still accepted, read from the database (never from the trusted checks): what an
   * open event stream is re-checked with after a revocation anywhere.
   */
  async isActive(token: string): Promise<boolean> {
    const hash = hashApiToken(token);
    if (this.configuredHash !== undefined && sameHash(hash, this.configuredHash)) return true;
    const found = await this.store.findActiveByHash(hash);
    return found !== undefined && sameHash(hash, found.tokenHash);
  }

  /**
   * True for the configured token or an active stored one (whose last use is recorded). A stored token
   * found active is trusted for TOKEN_CHECK_TTL_MS without another read.
   */
  async authenticate(token: string): Promise<boolean> {
    const hash = hashApiToken(token);
    if (this.configuredHash !== undefined && sameHash(hash, this.configuredHash)) return true;
    if (this.checks.trusts(hash)) return true;
    const check = this.checks.begin(hash);
    const found = await this.store.findActiveByHash(hash);
    if (found === undefined || !sameHash(hash, found.tokenHash)) return false;
    check.keep(found.id);
    const now = this.deps.clock();
    // last_used_at answers "is this token still in use?": a minute's precision is plenty, and it
    // spares every request (each console re-read, each event stream) a write.
    if (found.lastUsedAt === null || now.getTime() - Date.parse(found.lastUsedAt) >= LAST_USED_PRECISION_MS) {
      await this.store.touch(found.id, now.toISOString());
    }
    return true;
  }
}
