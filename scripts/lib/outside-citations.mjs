// Text that leans on something outside the repository: files next to the checkout, a style guide or
// design notes that are not here, numbered issues, invariants or "seed" documents. A reader of the
// repository cannot follow such a reference, so the rule itself is written instead. Code also never
// names a decision record by its file: a comment says why in words, or points at the reference page.

/** Applies to every checked file. */
const EVERYWHERE = [
  { pattern: /\.\.\/shared\b|\/work\/shared\b/, why: 'a path outside the repository' },
  { pattern: /\bshared\/(?:seeds|STYLE|DESIGN|container-engine|hooks)\b/, why: 'a path outside the repository' },
  { pattern: /\bSTYLE(?:\.md)?\s*§|\bSTYLE\.md\b|\bstyle guide\b/i, why: 'a style guide outside the repository' },
  { pattern: /\bDESIGN(?:\.md)?\s*§|\bDESIGN\.md\b/, why: 'design notes outside the repository' },
  { pattern: /\bissues?\s+#?\d+|\bissue order\b/i, why: 'a numbered issue' },
  { pattern: /\binvariants?\s+\d+/i, why: 'a numbered invariant from outside the repository' },
  {
    pattern:
      /\bseed (?:documents?|decisions?)\b|\b(?:provider|capability|founding|two) seeds?\b|\bthe seeds\b|\bseed's\b/i,
    why: 'a "seed" document outside the repository',
  },
];

/** Prose only (markdown): any "seed" but a random generator's (`seed 20261201`, "the fixed seed"). */
const PROSE = [{ pattern: /(?<!fixed |its )\bseeds?\b(?!\s*`?\d)/i, why: 'a "seed" document outside the repository' }];

/** Code, scripts, tests: decision records are named in words, never by file or date slug. */
const CODE = [
  {
    pattern: /\bADRs?\s*:?\s*\d{4}-\d{2}|decisions\/\d{4}-\d{2}-\d{2}-|\b\d{4}-\d{2}-\d{2}-[a-z]+-[a-z]/,
    why: 'a decision record by its file name (name the decision in words, or point at the reference page)',
  },
];

/** `{ line, why, text }` for each line of `path` that cites something outside the repository. */
export function outsideCitations(path, text) {
  const rules = [...EVERYWHERE, ...(path.endsWith('.md') ? PROSE : CODE)];
  const found = [];
  text.split('\n').forEach((line, index) => {
    for (const { pattern, why } of rules) {
      if (pattern.test(line)) {
        found.push({ line: index + 1, why, text: line.trim() });
        break;
      }
    }
  });
  return found;
}
