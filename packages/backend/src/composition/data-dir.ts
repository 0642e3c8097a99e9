import { join, resolve } from 'node:path';
import { API_TOKEN_FILE_NAME } from '../platform/auth/api-token-service';
import { SECRET_KEY_FILE_NAME } from '../platform/secrets/secret-key-file';
import { ensurePrivateDir, tightenPrivateDir, tightenPrivateFile } from '../platform/files/private-files';
import { DATABASE_FILE_NAME, DATABASE_SIDE_FILE_SUFFIXES } from '../platform/store/database';

// The backend's data dir and what it keeps there. Only these known names are tightened at start: a
// data dir pointed at a directory that also holds other things must not have those rewritten.

export const AGENTCTL_LOG_FILE = 'agentctl.log';
export const AGENTCTL_STATE_FILE = 'agentctl.json';
export const BACKEND_ID_FILE = 'backend-id';
/** The docker executor's per-container token files (0444 inside this 0700 directory: see DockerTokenFiles). */
export const DOCKER_TOKEN_DIR = 'docker-agentctl';

/** Every file the backend keeps directly in its data dir: each is private (0600). */
export const PRIVATE_DATA_FILES: readonly string[] = [
  DATABASE_FILE_NAME,
  ...DATABASE_SIDE_FILE_SUFFIXES.map((suffix) => `${DATABASE_FILE_NAME}${suffix}`),
  AGENTCTL_LOG_FILE,
  AGENTCTL_STATE_FILE,
  `${AGENTCTL_STATE_FILE}.tmp`,
  BACKEND_ID_FILE,
  API_TOKEN_FILE_NAME,
  SECRET_KEY_FILE_NAME,
];

/**
 * Creates the data dir 0700, or tightens it and every private file already in it that group or other
 * could reach (a data dir from an older version, a copied backup, a loose umask). Returns the paths it
 * tightened, for one warning; it never reads a file's contents.
 */
export function secureDataDir(dataDir: string): string[] {
  const dir = resolve(dataDir);
  const tightened: string[] = [];
  if (ensurePrivateDir(dir)) tightened.push(dir);
  for (const name of PRIVATE_DATA_FILES) {
    const path = join(dir, name);
    if (tightenPrivateFile(path)) tightened.push(path);
  }
  const tokenDir = join(dir, DOCKER_TOKEN_DIR);
  if (tightenPrivateDir(tokenDir)) tightened.push(tokenDir);
  return tightened;
}
