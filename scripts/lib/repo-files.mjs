// The files of the repository as git sees them: tracked ones plus new files not ignored (so a check run
// before `git add` sees a new page), repo-relative with forward slashes.
import { execFileSync } from 'node:child_process';

export function repoFiles(root) {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0').filter((path) => path !== ''))].sort();
}

/** A predicate over repo-relative paths: a file of the list, or a folder holding one. */
export function existsIn(files) {
  const known = new Set(files);
  for (const file of files) {
    for (let at = file.lastIndexOf('/'); at > 0; at = file.lastIndexOf('/', at - 1)) known.add(file.slice(0, at));
  }
  return (path) => known.has(path);
}
