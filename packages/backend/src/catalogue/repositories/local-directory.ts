import { statSync } from 'node:fs';
import { AppError } from '@kandev/protocol';

/**
 * A local repository is where its agent runs (the agent's cwd), so a path that exists on this host
 * and is not a directory can never work: refused at registration, before anything is stored, rather
 * than failing each launch. A path that does not exist here is accepted: it may exist only where the
 * session's agentctl runs (docker, remote executors).
 */
export function assertDirectoryOrAbsent(localPath: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(localPath).isDirectory();
  } catch {
    return; // missing or unreadable here: left to the agentctl's host
  }
  if (!isDirectory) {
    throw new AppError('invalid_argument', 'local_path must be a directory, not a file', { local_path: localPath });
  }
}
