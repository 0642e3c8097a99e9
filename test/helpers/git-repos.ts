// Real git repositories for workspace tests: local repositories, bare ones served by `git daemon` on
// loopback (git://) or by a tiny static HTTP server (git's dumb HTTP protocol) that demands a token.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createConnection, createServer as createNetServer } from 'node:net';
import { join, normalize } from 'node:path';
import type { Cleanup } from './cleanup';
import { tempDir } from './processes';
import { waitUntil } from './wait';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};

/** How the backend's git runs in these tests (its config picks PATH and HOME the same way). */
export const GIT_CONTEXT = { timeoutMs: 60_000, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } };

/** TaskWorkspacesConfig for a test: checkouts on, cleanup on archive, under `dir`. */
export function workspacesConfig(dir: string) {
  return { dir, checkout: true, cleanupOnArchive: true, gitTimeoutMs: GIT_CONTEXT.timeoutMs, gitEnv: GIT_CONTEXT.env };
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/**
 * A repository at `<parent>/<name>` with one commit on `main` (README holds `main`) and a `develop`
 * branch one commit ahead (DEVELOP holds `develop`); HEAD stays on main.
 */
export function makeRepository(parent: string, name: string): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '--quiet', '--initial-branch=main');
  writeFileSync(join(dir, 'README'), 'main\n');
  git(dir, 'add', 'README');
  git(dir, 'commit', '--quiet', '-m', 'initial');
  git(dir, 'checkout', '--quiet', '-b', 'develop');
  writeFileSync(join(dir, 'DEVELOP'), 'develop\n');
  git(dir, 'add', 'DEVELOP');
  git(dir, 'commit', '--quiet', '-m', 'develop');
  git(dir, 'checkout', '--quiet', 'main');
  return dir;
}

/** A bare copy of a fresh repository at `<base>/<owner>/<name>.git` (served as `<owner>/<name>.git`). */
export function makeBareRepository(base: string, owner: string, name: string): string {
  const source = makeRepository(tempDirNoCleanup(base), name);
  const bare = join(base, owner, `${name}.git`);
  mkdirSync(join(base, owner), { recursive: true });
  git(base, 'clone', '--quiet', '--bare', source, bare);
  git(bare, 'update-server-info'); // for the dumb HTTP server
  return bare;
}

function tempDirNoCleanup(base: string): string {
  const dir = join(base, '.sources', String(Math.random()).slice(2));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The branch checked out in a working tree. */
export function currentBranch(dir: string): string {
  return git(dir, 'rev-parse', '--abbrev-ref', 'HEAD');
}

/** Paths of a repository's worktrees (`git worktree list --porcelain`), the main one first. */
export function worktreePaths(repository: string): string[] {
  return git(repository, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length));
}

/** A free TCP port on 127.0.0.1 (git daemon cannot take port 0: bind one, close it, hand it on). */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface GitDaemon {
  /** `git://127.0.0.1:<port>/` */
  url: string;
  base: string;
}

/** `git daemon` exporting every repository under a fresh base path, on loopback; stopped at cleanup. */
export async function startGitDaemon(cleanup: Cleanup): Promise<GitDaemon> {
  const base = tempDir(cleanup, 'kandev-git-daemon-');
  const port = await freePort();
  const child: ChildProcess = spawn(
    'git',
    ['daemon', '--listen=127.0.0.1', `--port=${port}`, `--base-path=${base}`, '--export-all', '--reuseaddr', base],
    // Its own process group: `git daemon` runs git-daemon as a child, which outlived a kill of `git`.
    { stdio: 'ignore', detached: true },
  );
  cleanup.defer(async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      const exited = once(child, 'exit');
      process.kill(-child.pid, 'SIGKILL');
      await exited;
    }
  });
  await waitUntil(() => accepts(port), { timeoutMs: 20_000, what: `git daemon accepting on ${port}` });
  return { url: `git://127.0.0.1:${port}/`, base };
}

export interface TokenHttpServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  base: string;
  /** The Authorization header of every request, in order ('' when absent). */
  authorizations: string[];
}

/**
 * Serves the files under a fresh base path (git's dumb HTTP protocol: bare repositories after
 * `update-server-info`) only to requests carrying `Authorization: <expected>`; 401 otherwise.
 */
export async function startTokenHttpServer(cleanup: Cleanup, expected: string): Promise<TokenHttpServer> {
  const base = tempDir(cleanup, 'kandev-git-http-');
  const authorizations: string[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    const auth = request.headers.authorization ?? '';
    authorizations.push(auth);
    if (auth !== expected) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    const file = join(base, path);
    try {
      if (!file.startsWith(base) || !statSync(file).isFile()) throw new Error('not a file');
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(file));
    } catch {
      response.writeHead(404).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanup.defer(() => new Promise((resolve) => server.close(resolve)));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { origin: `http://127.0.0.1:${port}`, base, authorizations };
}
