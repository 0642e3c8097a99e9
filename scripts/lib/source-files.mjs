// The TypeScript sources of every package (packages/*/src, generated code and declarations aside), as
// the lint checks read them: { path (repo-relative, forward slashes), text }.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function sourceFiles(root) {
  const files = [];
  for (const pkg of readdirSync(join(root, 'packages'))) {
    const src = `packages/${pkg}/src`;
    let entries;
    try {
      entries = readdirSync(join(root, src), { recursive: true });
    } catch {
      continue; // a package without src/
    }
    for (const entry of entries) {
      const path = `${src}/${String(entry).split('\\').join('/')}`;
      if (!/\.(m|c)?ts$/.test(path) || path.endsWith('.d.ts') || path.includes('/generated/')) continue;
      files.push({ path, text: readFileSync(join(root, path), 'utf8') });
    }
  }
  return files;
}
