import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Each container's control token lives in its own file under a 0700 directory of the backend's data
 * dir and is bind-mounted read-only into the container: it never appears in the container's env (so
 * not in `docker inspect`), and a backend restarted on the same data dir can read it back to reattach.
 * The file itself is 0444 because the container's non-root user has another uid than the backend.
 */
export class DockerTokenFiles {
  constructor(private readonly dir: string) {}

  pathFor(containerName: string): string {
    return join(this.dir, `${containerName}.token`);
  }

  create(containerName: string): { path: string; token: string } {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const token = randomBytes(32).toString('base64url');
    const path = this.pathFor(containerName);
    writeFileSync(path, token, { mode: 0o444 });
    chmodSync(path, 0o444);
    return { path, token };
  }

  /** The token of a container started earlier, or undefined when its file is gone. */
  read(containerName: string): string | undefined {
    try {
      const token = readFileSync(this.pathFor(containerName), 'utf8').trim();
      return token.length > 0 ? token : undefined;
    } catch {
      return undefined;
    }
  }

  remove(containerName: string): void {
    rmSync(this.pathFor(containerName), { force: true });
  }
}
