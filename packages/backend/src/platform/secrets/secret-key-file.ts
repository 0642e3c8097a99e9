import { closeSync, fchmodSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PRIVATE_FILE_MODE } from '../files/private-files';
import { decodeSecretKey, SecretKey } from './secret-key';

/** The key the backend generates in its data dir when none is configured. */
export const SECRET_KEY_FILE_NAME = 'secret.key';

/** The secrets at rest cannot be used: a start fails with this message alone (no stack, no key). */
export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyError';
  }
}

/** Reads a key file (64 hex digits or base64 of 32 bytes); `source` names it in errors. */
export function readSecretKeyFile(path: string, source = path): SecretKey {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new SecretKeyError(`the secret key file ${source} cannot be read (${code})`);
  }
  const bytes = decodeSecretKey(text);
  if (bytes === undefined) {
    throw new SecretKeyError(`the secret key file ${source} does not hold 32 bytes as 64 hex digits or base64`);
  }
  return new SecretKey(bytes, source);
}

/**
 * Writes a new key file with mode 0600 whatever the umask; refuses to replace an existing file
 * (`wx`). The caller decides what the file is for.
 */
export function writeNewSecretKeyFile(path: string, key: SecretKey): void {
  const fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
    writeSync(fd, key.toFileText());
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The data dir's own key, `<dataDir>/secret.key`: read when present, else generated and written 0600.
 * `created` is true when this call wrote it (the operator should back it up with the database).
 */
export function dataDirSecretKey(dataDir: string): { key: SecretKey; created: boolean; path: string } {
  const path = join(resolve(dataDir), SECRET_KEY_FILE_NAME);
  try {
    const key = SecretKey.generate(path);
    writeNewSecretKeyFile(path, key);
    return { key, created: true, path };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return { key: readSecretKeyFile(path), created: false, path };
}
