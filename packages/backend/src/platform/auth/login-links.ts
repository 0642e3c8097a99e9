import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { Database } from '../store/database';
import type { AuthRecorder } from './api-token-service';

/** A sign-in link is good for this long, once. */
export const LOGIN_LINK_TTL_MS = 5 * 60_000;

const TABLE = 'login_links';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The row's key: a copy of the database gives a code's hash, which opens nothing. */
const hashCode = (code: string): string => createHash('sha256').update(code, 'utf8').digest('hex');

/** The key that seals the token in the row, known only to whoever holds the code. */
function codeKey(code: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(code, 'utf8'), Buffer.alloc(0), 'kandev console sign-in link', 32));
}

/** AES-256-GCM under the code's key, bound to the row (`iv:ciphertext:tag`, base64url). */
function sealToken(code: string, codeHash: string, token: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', codeKey(code), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(codeHash, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url')).join(':');
}

/** The token, or undefined when the value does not open with this code (never thrown: a link just fails). */
function openToken(code: string, codeHash: string, sealed: string): string | undefined {
  const [iv = '', ciphertext = '', tag = ''] = sealed.split(':');
  try {
    const decipher = createDecipheriv('aes-256-gcm', codeKey(code), Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(codeHash, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** Rows a raw statement returned: an array (better-sqlite3) or `{ rows }` (pg). */
function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  const rows = (result as { rows?: unknown } | null)?.rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

interface LoginLinkRow {
  sealed_token: string;
  expires_at_ms: number | string; // PostgreSQL returns bigint as a string
}

/**
 * One-time sign-in codes in the `login_links` table, so every replica on the database redeems the links
 * any of them issued. A code names the API token of whoever asked for it: opening the link signs the
 * console in as that token without the token ever being in a URL. The row keeps the code's hash and the
 * token sealed under the code, never either in the clear. Redeeming deletes the row in one statement
 * (`DELETE … RETURNING`): of two replicas redeeming one code at once, only one gets the row.
 */
export class LoginLinks {
  constructor(
    private readonly db: Database,
    private readonly clock: () => Date,
    /** Records each link issued (the audit trail: when it expires, never the code). */
    private readonly record?: AuthRecorder,
  ) {}

  async issue(token: string): Promise<{ code: string; expiresAt: Date }> {
    const now = this.clock().getTime();
    // Issuing is token-gated; pruning here keeps the table to the links still good.
    await this.db(TABLE).where('expires_at_ms', '<=', now).del();
    const code = randomBytes(24).toString('base64url');
    const codeHash = hashCode(code);
    const expiresAt = now + LOGIN_LINK_TTL_MS;
    await this.db(TABLE).insert({
      code_hash: codeHash,
      sealed_token: sealToken(code, codeHash, token),
      expires_at_ms: expiresAt,
    });
    await this.record?.({ type: 'login_link.created', data: { expires_at: new Date(expiresAt).toISOString() } });
    return { code, expiresAt: new Date(expiresAt) };
  }

  /** The token a code stands for, once, on any replica; undefined for an unknown, used or expired code. */
  async redeem(code: string): Promise<string | undefined> {
    const codeHash = hashCode(code);
    // Raw: knex compiles no RETURNING for a delete on SQLite (3.35+ runs it).
    const result: unknown = await this.db.raw(
      `DELETE FROM ${TABLE} WHERE code_hash = ? RETURNING sealed_token, expires_at_ms`,
      [codeHash],
    );
    const rows = rowsOf<LoginLinkRow>(result);
    const row = rows[0];
    if (row === undefined || Number(row.expires_at_ms) <= this.clock().getTime()) return undefined;
    return openToken(code, codeHash, row.sealed_token);
  }
}
