// Output: JSON for scripts, aligned text for people, ANSI colour only on a terminal (and never with
// NO_COLOR set), so piped output is plain.

export interface Out {
  line(text?: string): void;
  json(value: unknown): void;
  readonly colour: boolean;
}

/** Colour on a terminal only, and never when the environment says no (NO_COLOR, TERM=dumb). */
export function stdoutOut(colourAllowed: boolean): Out {
  return {
    colour: colourAllowed && process.stdout.isTTY === true,
    line: (text = '') => void process.stdout.write(`${text}\n`),
    json: (value) => void process.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
  };
}

const CODES = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36 } as const;
export type Style = keyof typeof CODES;

export function paint(out: Pick<Out, 'colour'>, style: Style, text: string): string {
  return out.colour ? `\u001b[${CODES[style]}m${text}\u001b[0m` : text;
}

/** Rows under a header, columns padded to the widest cell (the last column is never padded). */
export function table(out: Out, header: string[], rows: string[][]): void {
  if (rows.length === 0) {
    out.line(paint(out, 'dim', '(none)'));
    return;
  }
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const render = (cells: string[]) =>
    cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ');
  out.line(paint(out, 'bold', render(header)));
  for (const row of rows) out.line(render(row));
}

/** `key: value` lines for one object, keys aligned; nested values as compact JSON. */
export function fields(out: Out, entries: [string, unknown][]): void {
  const width = Math.max(...entries.map(([key]) => key.length));
  for (const [key, value] of entries) {
    const text =
      value === null || value === undefined ? '-' : typeof value === 'string' ? value : JSON.stringify(value);
    out.line(`${paint(out, 'dim', `${key}:`.padEnd(width + 1))} ${text}`);
  }
}

/** The first line of a text, cut to `max` characters. */
export function firstLine(text: string, max = 80): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
