import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cleanup } from '../cleanup';

/** A fresh directory under the OS temp dir, removed when the test's cleanup runs. */
export function tempDir(cleanup: Cleanup, prefix = 'kandev-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.defer(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
