import { existsSync, lstatSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type GitContext, GitCommandError, runGit } from './git-command';
import { authHeaderConfigKey, cloneAuthHeader, type CloneCredential, displayUrl } from './workspace-layout';

// The git steps of a task workspace: a worktree of a local repository, a clone of a remote one, which
// repository an existing folder belongs to, and removing a worktree so its source keeps no stale entry.

/** What a checkout needs to know about an attached repository. */
export interface CheckoutSource {
  repositoryId: string;
  name: string;
  localPath: string | null;
  remoteUrl: string | null;
  provider: string | null;
  baseBranch: string | null;
}

export interface CheckoutOptions {
  git: GitContext;
  branch: string;
  credential?: CloneCredential;
}

/** The absolute git common dir of the repository at `dir` (`.git` of a normal repository). */
export async function gitCommonDir(dir: string, git: GitContext): Promise<string> {
  const out = await runGit(['rev-parse', '--git-common-dir'], { ...git, cwd: dir });
  return resolve(dir, out);
}

async function branchExists(gitDir: string, branch: string, git: GitContext): Promise<boolean> {
  try {
    await runGit(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { ...git, cwd: gitDir });
    return true;
  } catch (error) {
    if (error instanceof GitCommandError && error.exitCode === 1) return false;
    throw error;
  }
}

function dotGit(path: string): 'file' | 'dir' | undefined {
  try {
    const stat = lstatSync(join(path, '.git'));
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'dir' : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the existing folder at `path` is this repository's checkout (a workspace folder left by an
 * earlier ensure, or by a detached source that was attached again). Only a folder with its own `.git`
 * is asked: git run in any other folder would answer for whatever repository encloses the workspaces dir.
 */
export async function folderBelongsTo(path: string, source: CheckoutSource, git: GitContext): Promise<boolean> {
  const kind = dotGit(path);
  try {
    if (source.localPath !== null) {
      if (kind !== 'file') return false;
      const [mine, theirs] = await Promise.all([gitCommonDir(path, git), gitCommonDir(source.localPath, git)]);
      return mine === theirs;
    }
    if (kind !== 'dir' || source.remoteUrl === null) return false;
    return (await runGit(['config', '--get', 'remote.origin.url'], { ...git, cwd: path })) === source.remoteUrl;
  } catch {
    return false;
  }
}

/** Names the repository in every failure, so the launch error says which checkout failed. */
function failure(source: CheckoutSource, error: unknown): Error {
  const where = source.localPath ?? displayUrl(source.remoteUrl ?? '');
  const why = error instanceof Error ? error.message : String(error);
  return new GitCommandError(`checking out repository ${source.name} (${where}) failed: ${why}`, null);
}

/** `git worktree add` on the task branch (created from the base branch, else the repository's HEAD). */
async function addWorktree(source: CheckoutSource & { localPath: string }, path: string, options: CheckoutOptions) {
  const { git, branch } = options;
  const cwd = source.localPath;
  if (!existsSync(cwd)) throw new Error(`local path ${cwd} does not exist`);
  const commonDir = await gitCommonDir(cwd, git);
  const args = (await branchExists(cwd, branch, git))
    ? ['worktree', 'add', path, branch]
    : ['worktree', 'add', '-b', branch, path, source.baseBranch ?? 'HEAD'];
  await runGit(args, { ...git, cwd });
  return { kind: 'worktree' as const, gitCommonDir: commonDir };
}

/**
 * `git clone` of the remote on the base branch (else its default branch), then the task branch. The
 * provider token goes as an `http.extraHeader` in this command's environment only: the clone's
 * .git/config never holds it, and git's messages are stripped of it.
 */
async function cloneRemote(source: CheckoutSource & { remoteUrl: string }, path: string, options: CheckoutOptions) {
  const { git, branch } = options;
  const header = cloneAuthHeader(source.remoteUrl, source.provider, options.credential);
  const branchArgs = source.baseBranch === null ? [] : ['--branch', source.baseBranch];
  await runGit(['clone', '--no-recurse-submodules', ...branchArgs, '--', source.remoteUrl, path], {
    ...git,
    transientConfig: header === null ? undefined : { [authHeaderConfigKey(source.remoteUrl)]: header },
    secrets: [options.credential?.token ?? '', header ?? ''],
  });
  await runGit(['checkout', '-b', branch], { ...git, cwd: path });
  return { kind: 'clone' as const, gitCommonDir: null };
}

/**
 * Makes the repository's checkout at `path` (which must not exist). On failure nothing is left: the
 * folder is removed and the source's worktree list pruned; the error names the repository.
 */
export async function createCheckout(source: CheckoutSource, path: string, options: CheckoutOptions) {
  try {
    if (source.localPath !== null) return await addWorktree({ ...source, localPath: source.localPath }, path, options);
    if (source.remoteUrl !== null) return await cloneRemote({ ...source, remoteUrl: source.remoteUrl }, path, options);
    throw new Error('it has neither a local path nor a remote URL');
  } catch (error) {
    await rm(path, { recursive: true, force: true });
    if (source.localPath !== null && existsSync(source.localPath)) {
      await runGit(['worktree', 'prune'], { ...options.git, cwd: source.localPath }).catch(() => '');
    }
    throw failure(source, error);
  }
}

/**
 * Removes a worktree folder through its source repository (`git worktree remove --force`, then
 * `prune`), so the source lists no stale worktree; false when it is not a worktree or git could not.
 */
export async function removeWorktree(path: string, git: GitContext): Promise<boolean> {
  if (dotGit(path) !== 'file') return false;
  try {
    const commonDir = await gitCommonDir(path, git);
    await runGit(['--git-dir', commonDir, 'worktree', 'remove', '--force', path], git);
    await runGit(['--git-dir', commonDir, 'worktree', 'prune'], git);
    return true;
  } catch {
    return false;
  }
}
