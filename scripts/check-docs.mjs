#!/usr/bin/env node
// The documentation check (npm run lint): every relative link and anchor in the repository's markdown
// resolves to a file, folder or heading of the repository; no file cites anything outside it (paths next
// to the checkout, a style guide, design notes, numbered issues or invariants, "seed" documents) and no
// code names a decision record by its file; the decision records' front matter is complete and their
// chains agree both ways; docs/decisions/README.md's index is the one their front matter generates.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkDocs } from './lib/doc-check.mjs';
import { INDEX, formatIndex } from './lib/decisions.mjs';
import { existsIn, repoFiles } from './lib/repo-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Not scanned for citations: the lockfile, and this check's own rules and planted cases. */
const EXEMPT = [
  'pnpm-lock.yaml',
  'scripts/check-docs.mjs',
  'scripts/lib/outside-citations.mjs',
  'scripts/lib/doc-check.test.mjs',
];

const paths = repoFiles(root);
const files = [];
for (const path of paths) {
  if (EXEMPT.some((exempt) => path === exempt || (exempt.endsWith('/') && path.startsWith(exempt)))) continue;
  let buffer;
  try {
    buffer = readFileSync(join(root, path));
  } catch {
    continue; // listed by git but deleted in the work tree
  }
  if (buffer.includes(0)) continue; // binary
  files.push({ path, text: buffer.toString('utf8') });
}

const { problems, records } = checkDocs(files, existsIn(paths));
const current = readFileSync(join(root, INDEX), 'utf8');
// The index is compared only once the records themselves are sound (their problems are listed above).
const recordsSound = records.every((record) => record.problems.length === 0);
if (recordsSound && (await formatIndex(join(root, INDEX), current, records)) !== current) {
  problems.push({ path: INDEX, message: 'the index differs from the records: run npm run gen:decisions-index' });
}

if (problems.length > 0) {
  for (const { path, line, message } of problems) console.error(`${path}${line ? `:${line}` : ''}: ${message}`);
  console.error(`docs: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  process.exit(1);
}
const markdown = files.filter((f) => f.path.endsWith('.md')).length;
console.log(`docs: ${markdown} markdown files, ${files.length} files scanned, ${records.length} decision records: ok`);
