import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../platform/files/private-files';

/**
 * This backend's id on the containers it starts: kept in the data dir, so a backend restarted on the
 * same data finds its own containers (and never another backend's) by label.
 */
export function loadBackendId(path: string): string {
  try {
    const id = readFileSync(path, 'utf8').trim();
    if (/^[0-9a-f-]{36}$/.test(id)) return id;
  } catch {
    // none yet
  }
  const id = randomUUID();
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  writeFileSync(path, `${id}\n`, { mode: PRIVATE_FILE_MODE });
  chmodSync(path, PRIVATE_FILE_MODE);
  return id;
}
