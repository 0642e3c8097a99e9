import { execFileSync } from 'node:child_process';

/**
 * The branch checked out in the agent's working directory, asked of real git (`git rev-parse
 * --abbrev-ref HEAD`); '' outside a git working tree or without git. Used by {{git_branch}}.
 */
export function currentGitBranch(): string {
  try {
    return execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], {
      cwd: process.cwd(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    }).trim();
  } catch {
    return '';
  }
}
