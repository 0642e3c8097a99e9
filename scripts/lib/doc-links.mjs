// Relative links and anchors in markdown, checked against the files of the repository: a link points at
// a file or folder that exists inside it, and a `#fragment` into a markdown file names one of its headings
// (GitHub's anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered -1, -2, ...).
import { posix } from 'node:path';

/** The text with fenced code blocks and inline code spans blanked (same length, newlines kept). */
export function blankCode(text) {
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  let inFence = false;
  let fence = '';
  const lines = text.split('\n').map((line) => {
    const open = /^\s*(`{3,}|~{3,})/.exec(line);
    if (!inFence && open !== null) {
      inFence = true;
      fence = open[1];
      return blank(line);
    }
    if (inFence) {
      if (line.trim().startsWith(fence)) inFence = false;
      return blank(line);
    }
    // A code span keeps its backticks' length as filler, so link text such as [`x`](y) still parses.
    return line.replace(/(`+)([^`]|[^`].*?[^`])\1(?!`)/g, (span) => 'x'.repeat(span.length));
  });
  return lines.join('\n');
}

/** A heading's text as GitHub renders it (code, links and emphasis marks gone), then its anchor. */
export function anchorOf(heading) {
  const text = heading
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/\*+/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a markdown file offers: its headings (numbered when repeated) and explicit `<a id|name>`. */
export function anchorsOf(text) {
  const anchors = new Set();
  const seen = new Map();
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      const base = anchorOf(heading[1]);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]);
  }
  return anchors;
}

const lineAt = (text, index) => text.slice(0, index).split('\n').length;

/** `{ target, line }` for every inline link, image and reference definition outside code. */
export function linksOf(text) {
  const plain = blankCode(text);
  const links = [];
  const inline = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*")?\s*\)/g;
  for (const match of plain.matchAll(inline)) {
    links.push({ target: match[1].replace(/^<|>$/g, ''), line: lineAt(plain, match.index) });
  }
  for (const match of plain.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)) {
    links.push({ target: match[1].replace(/^<|>$/g, ''), line: lineAt(plain, match.index) });
  }
  return links;
}

/**
 * Problems with one link of `from` (a repo-relative path): undefined when it resolves. `exists(path)`
 * says whether a repo-relative path is a file or folder of the repository; `anchors(path)` gives a
 * markdown file's anchors.
 */
export function checkLink(from, target, { exists, anchors }) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:: not this check's business
  const hash = target.indexOf('#');
  const pathPart = hash === -1 ? target : target.slice(0, hash);
  const fragment = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  let path = from;
  if (pathPart !== '') {
    let decoded;
    try {
      decoded = decodeURIComponent(pathPart);
    } catch {
      return `${target}: not a valid link`;
    }
    path = decoded.startsWith('/')
      ? posix.normalize(decoded.slice(1))
      : posix.normalize(posix.join(posix.dirname(from), decoded));
    path = path.replace(/\/$/, '');
    if (path === '..' || path.startsWith('../')) return `${target}: points outside the repository`;
    if (path === '.' || path === '') path = '.';
    else if (!exists(path)) return `${target}: no such file or folder (${path})`;
  }
  if (fragment === undefined || fragment === '' || !path.endsWith('.md')) return undefined;
  if (!anchors(path).has(fragment)) return `${target}: ${path} has no heading with the anchor #${fragment}`;
  return undefined;
}
