import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync, statSync } from 'node:fs';

// Files that hold secrets (the database, tokens, logs that may quote requests) are readable by the
// backend's user only. Every helper here sets the mode explicitly (chmod/fchmod), never through the
// `mode` argument alone: that argument is filtered by the process umask and ignored for a file or
// directory that already exists.

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Group or other may read, write or enter it. */
export function isLooserThanPrivate(mode: number): boolean {
  return (mode & 0o077) !== 0;
}

function currentMode(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}

/**
 * Creates the directory (and missing parents) 0700, or tightens an existing one to 0700 when group or
 * other had access. True when an existing directory was tightened.
 */
export function ensurePrivateDir(path: string): boolean {
  const before = currentMode(path);
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (before === undefined) {
    chmodSync(path, PRIVATE_DIR_MODE);
    return false;
  }
  if (!isLooserThanPrivate(before)) return false;
  chmodSync(path, PRIVATE_DIR_MODE);
  return true;
}

/** Tightens an existing directory to 0700 when group or other had access; a missing one stays missing. */
export function tightenPrivateDir(path: string): boolean {
  const before = currentMode(path);
  if (before === undefined || !isLooserThanPrivate(before)) return false;
  chmodSync(path, PRIVATE_DIR_MODE);
  return true;
}

/** Tightens an existing file to 0600 when group or other had access; a missing file is left missing. */
export function tightenPrivateFile(path: string): boolean {
  const before = currentMode(path);
  if (before === undefined || !isLooserThanPrivate(before)) return false;
  chmodSync(path, PRIVATE_FILE_MODE);
  return true;
}

/**
 * Opens (creating when missing) a file for appending with mode 0600 whatever the umask, and tightens
 * one that existed with a looser mode. The caller owns the descriptor.
 */
export function openPrivateAppend(path: string): number {
  const fd = openSync(path, 'a', PRIVATE_FILE_MODE);
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** Makes sure the file exists with mode 0600 (created empty when missing). */
export function ensurePrivateFile(path: string): void {
  closeSync(openPrivateAppend(path));
}
