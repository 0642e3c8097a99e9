import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

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
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${id}\n`, { mode: 0o600 });
  return id;
}
