// The `wait_for_file` step's I/O: resolves once a file exists. Event-driven (fs.watch on its directory),
// never polling on a timer, so a test releases a turn exactly when it writes the file.
import { existsSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Resolves when `path` exists (at once if it already does); rejects when its directory does not exist
 * or cannot be watched. `signal` stops the watch (the turn was cancelled) and resolves nothing.
 */
export function waitForFile(path: string, signal: AbortSignal): Promise<void> {
  const dir = dirname(path);
  const name = basename(path);
  return new Promise<void>((resolve, reject) => {
    let watcher: ReturnType<typeof watch>;
    try {
      // Watch first, then check: a file created in between is seen by one or the other.
      watcher = watch(dir, { signal });
    } catch (err) {
      reject(new Error(`cannot watch ${dir}: ${err instanceof Error ? err.message : String(err)}`, { cause: err }));
      return;
    }
    const done = () => {
      watcher.close();
      resolve();
    };
    watcher.on('change', (_event, changed) => {
      if ((changed === null || String(changed) === name) && existsSync(path)) done();
    });
    watcher.on('error', (err) => {
      // AbortSignal ends the watch with an AbortError: the turn was cancelled, nothing to report.
      if (err.name !== 'AbortError') reject(err);
    });
    if (existsSync(path)) done();
  });
}
