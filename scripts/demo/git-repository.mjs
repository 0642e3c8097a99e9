// A throwaway git repository for the demo's agent: its task gets a worktree of it on kandev/<task id>.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'kandev demo',
  GIT_AUTHOR_EMAIL: 'demo@kandev.invalid',
  GIT_COMMITTER_NAME: 'kandev demo',
  GIT_COMMITTER_EMAIL: 'demo@kandev.invalid',
};

/** `<tmp>/kandev-demo-repo-*`: one commit on `main`. */
export function createDemoRepository() {
  const path = mkdtempSync(join(tmpdir(), 'kandev-demo-repo-'));
  const git = (...args) => execFileSync('git', args, { cwd: path, env: GIT_ENV, stdio: 'ignore' });
  git('init', '--quiet', '--initial-branch=main');
  writeFileSync(join(path, 'README.md'), '# login service\n');
  git('add', 'README.md');
  git('commit', '--quiet', '-m', 'Initial commit');
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
