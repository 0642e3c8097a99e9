import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { AppError } from '@kandev/protocol';
import type { Logger } from '../logger/logger';
import { newId } from '../store/row-values';
import { displayPrefix, generateApiToken, hashApiToken, mintRefusal, sameHash } from './api-token-rules';
import { CONFIGURED_PRINCIPAL, type Principal, type Role, scopeWithin } from '../access/principal';
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
  /** Whether a workspace exists (a token limited to an unknown workspace is refused); default: all do. */
  workspaceExists?: (id: string) => Promise<boolean>;
  /** Records a token's creation or revocation in the event log (the audit trail); default: not recorded. */
  record?: AuthRecorder;
}

/**
 * Appends an event of no task or workspace (the composition root wires the event log): what the API
 * tokens and sign-in links record, with ids, names and roles only, never a token or a code.
 */
export type AuthRecorder = (event: {
  type: 'token.created' | 'token.revoked' | 'login_link.created';
  data: Record<string, unknown>;
}) => Promise<void>;

/** The part of the replica signals token revocation uses. */
export interface TokenRevocationSignals {
  publish(name: 'token_revoked', payload: string): void;
  subscribe(name: 'token_revoked', listener: { signal(payload: string): void; resync(): void }): () => void;
}

/** What a caller asks for in POST /api/tokens. */
export interface NewApiToken {
  name: string;
  role: Role;
  /** null: every workspace (only a caller with every workspace may mint one). */
  workspaces: string[] | null;
}

/** Operator tokens: creation, listing, revocation, and the check every /api request goes through. */
export class ApiTokenService {
  private readonly store: ApiTokenStore;
  private readonly configuredHash: string | undefined;
  private readonly checks: TokenCheckCache;
  /** The principal of each token the check cache trusts (read together with it). */
  private readonly principals = new Map<string, Principal>();
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

  /**
   * A token minted by `caller`: its role at or below the caller's, its workspaces within the caller's
   * (403 naming what is missing), each workspace known (404). Nothing is stored on a refusal.
   */
  async mint(caller: Principal, wanted: NewApiToken): Promise<CreatedApiToken> {
    const workspaces = wanted.workspaces === null ? null : [...new Set(wanted.workspaces)].sort();
    const refusal = mintRefusal(caller, wanted.role, workspaces);
    if (refusal !== undefined) throw new AppError('permission_denied', refusal);
    for (const id of workspaces ?? []) {
      if (this.deps.workspaceExists !== undefined && !(await this.deps.workspaceExists(id))) {
        throw new AppError('not_found', `workspace ${id} not found`);
      }
    }
    return this.create(wanted.name, { role: wanted.role, workspaces, createdBy: caller.tokenId });
  }

  /** A token with no caller to check (the admin token file, tests): admin over every workspace by default. */
  async create(
    name: string,
    options: { role?: Role; workspaces?: string[] | null; createdBy?: string | null } = {},
  ): Promise<CreatedApiToken> {
    const token = generateApiToken();
    const record: ApiTokenRecord = {
      id: newId(),
      name,
      prefix: displayPrefix(token),
      role: options.role ?? 'admin',
      workspaces: options.workspaces ?? null,
      createdBy: options.createdBy ?? null,
      createdAt: this.deps.clock().toISOString(),
      lastUsedAt: null,
    };
    await this.store.insert(record, hashApiToken(token));
    const { id, role, workspaces, createdBy } = record;
    await this.deps.record?.({
      type: 'token.created',
      data: { token: { id, name, role, workspaces, created_by: createdBy } },
    });
    return { ...record, token };
  }

  /** Active tokens the caller could have minted (a limited token sees the tokens within its scope). */
  async list(caller: Principal = CONFIGURED_PRINCIPAL): Promise<ApiTokenRecord[]> {
    return (await this.store.listActive()).filter((token) => scopeWithin(token.workspaces, caller.workspaces));
  }

  /**
   * Once this resolves no replica accepts the token: this one forgot it at once; where replicas share
   * the database, after the longest any of them trusts a check (TOKEN_CHECK_TTL_MS).
   */
  async revoke(id: string, caller: Principal = CONFIGURED_PRINCIPAL): Promise<void> {
    // A token outside the caller's scope is as good as absent: its existence is not confirmed.
    const found = await this.store.findActive(id);
    if (found === undefined || !scopeWithin(found.workspaces, caller.workspaces)) {
      throw new AppError('not_found', `API token ${id} not found`);
    }
    if (!(await this.store.revoke(id, this.deps.clock().toISOString()))) {
      throw new AppError('not_found', `API token ${id} not found`);
    }
    this.checks.forget(id);
    await this.deps.record?.({ type: 'token.revoked', data: { token: { id, name: found.name } } });
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

  /** True for the configured token or an active stored one (identify). */
  async authenticate(token: string): Promise<boolean> {
    return (await this.identify(token)) !== undefined;
  }

  /**
   * Who the configured token or an active stored one (whose last use is recorded) is; undefined for
   * any other token. A stored token found active is trusted for TOKEN_CHECK_TTL_MS without another read.
   */
  async identify(token: string): Promise<Principal | undefined> {
    const hash = hashApiToken(token);
    if (this.configuredHash !== undefined && sameHash(hash, this.configuredHash)) return CONFIGURED_PRINCIPAL;
    const trusted = this.checks.trusts(hash) ? this.principals.get(hash) : undefined;
    if (trusted !== undefined) return trusted;
    this.principals.delete(hash);
    const check = this.checks.begin(hash);
    const found = await this.store.findActiveByHash(hash);
    if (found === undefined || !sameHash(hash, found.tokenHash)) return undefined;
    const principal: Principal = {
      tokenId: found.id,
      name: found.name,
      role: found.role,
      workspaces: found.workspaces,
    };
    check.keep(found.id);
    this.principals.set(hash, principal);
    const now = this.deps.clock();
    // last_used_at answers "is this token still in use?": a minute's precision is plenty, and it
    // spares every request (each console re-read, each event stream) a write.
    if (found.lastUsedAt === null || now.getTime() - Date.parse(found.lastUsedAt) >= LAST_USED_PRECISION_MS) {
      await this.store.touch(found.id, now.toISOString());
    }
    return principal;
  }
}
