import { accessSync, constants, mkdirSync } from 'node:fs';
import { isAbsolute } from 'node:path';

/** The workspaces dir cannot be used; the message names the variable and the path, never a secret. */
export class WorkspacesDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkspacesDirError';
  }
}

/**
 * At start-up, before anything is served: the workspaces dir exists (created when missing) and the
 * backend can write in it, so a misconfigured dir stops the start with one clear line instead of
 * failing every launch later.
 */
export function prepareWorkspacesDir(dir: string): void {
  if (!isAbsolute(dir)) throw new WorkspacesDirError(`KANDEV_WORKSPACES_DIR must be an absolute path (got ${dir})`);
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    const why = error instanceof Error && 'code' in error ? String(error.code) : String(error);
    throw new WorkspacesDirError(`the workspaces dir ${dir} (KANDEV_WORKSPACES_DIR) is not writable: ${why}`);
  }
}
