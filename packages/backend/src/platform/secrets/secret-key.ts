import { createHash, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { z } from 'zod';

// The key that seals secrets at rest (provider tokens, agent-profile env values). Its bytes stay in a
// private field: JSON, util.inspect and log serialisers see only its id and where it came from.

export const SECRET_KEY_BYTES = 32;

const HEX_KEY = /^[0-9a-f]{64}$/i;
const BASE64_KEY = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** 64 hex digits, or base64 (standard or URL-safe) of 32 bytes; undefined for anything else. */
export function decodeSecretKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (HEX_KEY.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!BASE64_KEY.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === SECRET_KEY_BYTES ? bytes : undefined;
}

/** A key as text (env var or file contents) → its 32 bytes; the issue never quotes the value. */
export const SecretKeyTextSchema = z.string().transform((text, ctx) => {
  const bytes = decodeSecretKey(text);
  if (bytes === undefined) {
    ctx.addIssue({ code: 'custom', message: 'must be 32 bytes as 64 hex digits or base64' });
    return z.NEVER;
  }
  return bytes;
});

export class SecretKey {
  readonly #bytes: Buffer;
  /** A short fingerprint stored with every sealed value: tells which key sealed it without decrypting. */
  readonly id: string;

  /** `source` says where the key came from, for error messages: a variable name or a file path. */
  constructor(
    bytes: Buffer,
    readonly source: string,
  ) {
    if (bytes.length !== SECRET_KEY_BYTES) throw new Error(`a secret key is ${SECRET_KEY_BYTES} bytes`);
    this.#bytes = Buffer.from(bytes);
    this.id = createHash('sha256').update('kandev-secret-key-id\0').update(bytes).digest('hex').slice(0, 16);
  }

  static generate(source: string): SecretKey {
    return new SecretKey(randomBytes(SECRET_KEY_BYTES), source);
  }

  /** The raw bytes: only for the cipher and for writing a key file. */
  bytes(): Buffer {
    return Buffer.from(this.#bytes);
  }

  /** What a key file holds: base64 and a newline. */
  toFileText(): string {
    return `${this.#bytes.toString('base64')}\n`;
  }

  toJSON(): { id: string; source: string } {
    return { id: this.id, source: this.source };
  }

  [inspect.custom](): string {
    return `SecretKey(${this.id} from ${this.source})`;
  }
}
