import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretKey } from './secret-key';

// AES-256-GCM for values at rest. A sealed value is self-describing text:
//   enc:v1:<key id>:<iv>:<ciphertext>:<tag>   (iv, ciphertext, tag: base64url; iv 12 random bytes)
// so a column can hold plaintext (a row written before encryption) and sealed values side by side and
// each is told apart, and a value sealed under another key is recognised without trying to decrypt it.
// The header (`enc:v1:<key id>`) is the GCM additional data: changing any part of the value is refused.

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const B64URL = /^[A-Za-z0-9_-]*$/;

export type OpenFailure = 'malformed' | 'other_key' | 'tampered';

/** A value that cannot be opened. The message never quotes the value. */
export class SecretOpenError extends Error {
  constructor(
    readonly failure: OpenFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SecretOpenError';
  }
}

/** Whether a stored value is sealed (any version or key) rather than plaintext. */
export function isSealed(value: string): boolean {
  return value.startsWith('enc:');
}

interface SealedParts {
  keyId: string;
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

function parseSealed(value: string): SealedParts | undefined {
  if (!value.startsWith(PREFIX)) return undefined;
  const parts = value.slice(PREFIX.length).split(':');
  if (parts.length !== 4 || !parts.every((part) => B64URL.test(part))) return undefined;
  const [keyId = '', iv = '', ciphertext = '', tag = ''] = parts;
  const parsed = {
    keyId,
    iv: Buffer.from(iv, 'base64url'),
    ciphertext: Buffer.from(ciphertext, 'base64url'),
    tag: Buffer.from(tag, 'base64url'),
  };
  if (keyId.length === 0 || parsed.iv.length !== IV_BYTES || parsed.tag.length !== TAG_BYTES) return undefined;
  return parsed;
}

/** The key id a sealed value names, or undefined when it is not a well-formed sealed value. */
export function sealedKeyId(value: string): string | undefined {
  return parseSealed(value)?.keyId;
}

/** Seals and opens values under one key. */
export class SecretBox {
  constructor(readonly key: SecretKey) {}

  seal(plaintext: string): string {
    const header = `${PREFIX}${this.key.id}`;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key.bytes(), iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(header, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [header, iv.toString('base64url'), ciphertext.toString('base64url'), tag.toString('base64url')].join(':');
  }

  /** The plaintext of a value sealed under this key; throws SecretOpenError for anything else. */
  open(sealed: string): string {
    const parts = parseSealed(sealed);
    if (parts === undefined) throw new SecretOpenError('malformed', 'a stored secret is not a sealed value');
    if (parts.keyId !== this.key.id) {
      throw new SecretOpenError(
        'other_key',
        `a stored secret was sealed with key ${parts.keyId}, not with key ${this.key.id} from ${this.key.source}`,
      );
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key.bytes(), parts.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(`${PREFIX}${parts.keyId}`, 'utf8'));
    decipher.setAuthTag(parts.tag);
    try {
      return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretOpenError(
        'tampered',
        `a stored secret does not decrypt with key ${this.key.id} from ${this.key.source} (altered, or another key with the same id)`,
      );
    }
  }

  /** A stored value as plaintext: a sealed one is opened, a plaintext one (written before sealing) kept. */
  reveal(stored: string): string {
    return isSealed(stored) ? this.open(stored) : stored;
  }
}
