// The YAML front matter of a markdown file, in the small subset the decision records use: `key: value`,
// `key: [a, b]` (also wrapped over several lines) and block lists (`key:` then `  - item` lines). Anything
// else is reported, not guessed at, so a record that a YAML reader would see differently fails the check.

const KEY = /^([a-z_]+):(?:\s+(.*))?$/;

/** Splits `a, b` of a flow list; items are plain words, paths or dates (no quotes or commas inside). */
const flowItems = (inner) =>
  inner
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/**
 * `{ data, body, bodyLine }` for text that starts with a `---` block, `{ data: undefined, body: text }` for
 * text without one; throws an Error naming the line for anything outside the subset. `bodyLine` is the
 * 1-based line of the file where the body starts.
 */
export function parseFrontMatter(text) {
  const lines = text.split('\n');
  if (lines[0] !== '---') return { data: undefined, body: text, bodyLine: 1 };
  const end = lines.indexOf('---', 1);
  if (end === -1) throw new Error('line 1: front matter has no closing ---');
  const data = {};
  let listKey;
  for (let i = 1; i < end; i += 1) {
    const line = lines[i];
    const where = `line ${i + 1}`;
    if (line.trim() === '') continue;
    const item = /^\s+-\s+(.+)$/.exec(line);
    if (item !== null) {
      if (listKey === undefined) throw new Error(`${where}: list item without a key`);
      data[listKey].push(item[1].trim());
      continue;
    }
    const match = KEY.exec(line);
    if (match === null) throw new Error(`${where}: expected "key: value", got "${line}"`);
    const [, key, raw = ''] = match;
    if (key in data) throw new Error(`${where}: ${key} given twice`);
    listKey = undefined;
    let value = raw.trim();
    if (value.startsWith('[')) {
      // A flow list, possibly wrapped by a formatter over the following lines.
      while (!value.endsWith(']') && i + 1 < end) value += ` ${lines[++i].trim()}`;
      if (!value.endsWith(']')) throw new Error(`${where}: ${key}'s list is not closed`);
      data[key] = flowItems(value.slice(1, -1));
    } else if (value === '') {
      data[key] = [];
      listKey = key;
    } else {
      data[key] = value;
    }
  }
  return { data, body: lines.slice(end + 1).join('\n'), bodyLine: end + 2 };
}
