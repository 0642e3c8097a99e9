// The documentation check over a set of files ({ path, text }, repo-relative): relative links and
// anchors of every markdown file, citations of anything outside the repository in every file, and the
// decision records' front matter and chains. Pure, so a test can plant a broken link and see it caught;
// scripts/check-docs.mjs runs it over the repository (and compares the generated decision index).
import { checkDecisions, isDecisionFile, readDecision } from './decisions.mjs';
import { anchorsOf, checkLink, linksOf } from './doc-links.mjs';
import { outsideCitations } from './outside-citations.mjs';

/**
 * `{ problems: [{ path, line?, message }], records }` for `files`; `exists(path)` knows every file and
 * folder of the repository (also those not in `files`, e.g. binaries a link may point at).
 */
export function checkDocs(files, exists) {
  const texts = new Map(files.map((f) => [f.path, f.text]));
  const anchorCache = new Map();
  const anchors = (path) => {
    if (!anchorCache.has(path)) anchorCache.set(path, anchorsOf(texts.get(path) ?? ''));
    return anchorCache.get(path);
  };
  const problems = [];
  const records = [];
  for (const { path, text } of files) {
    if (path.endsWith('.md')) {
      for (const { target, line } of linksOf(text)) {
        const message = checkLink(path, target, { exists, anchors });
        if (message !== undefined) problems.push({ path, line, message: `broken link ${message}` });
      }
    }
    for (const { line, why, text: excerpt } of outsideCitations(path, text)) {
      problems.push({ path, line, message: `cites ${why}: ${excerpt}` });
    }
    if (isDecisionFile(path)) {
      const record = readDecision(path.slice(path.lastIndexOf('/') + 1), text);
      records.push(record);
      if (record.reference) {
        const message = checkLink(path, record.reference, { exists, anchors });
        if (message !== undefined) problems.push({ path, line: 1, message: `reference ${message}` });
      }
    }
  }
  for (const { file, message } of checkDecisions(records)) {
    problems.push({ path: `docs/decisions/${file}`, message });
  }
  return { problems, records };
}
