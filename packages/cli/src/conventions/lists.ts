import { type Command, InvalidArgumentError, Option } from 'commander';
import type { Ctx } from '../context';
import { table } from '../output';

// What every list shares: `-o table|wide|json`, `--limit N` and `--sort <order>`. Sorting and the limit
// apply to the whole listing (every page read), so `--sort newest --limit 5` is the five newest.

export const OUTPUT_FORMATS = ['table', 'wide', 'json'];

export interface ListOptions {
  limit?: number;
  sort?: string;
}

export function positive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a whole number of at least 1');
  return n;
}

export function outputOption(command: Command): Command {
  return command.addOption(
    new Option('-o, --output <format>', 'table (default), wide (more columns) or json').choices(OUTPUT_FORMATS),
  );
}

type Sorter<T> = (a: T, b: T) => number;

/** Adds -o, --limit and --sort (the first order named is the default). */
export function listOptions<T>(command: Command, sorters: Record<string, Sorter<T>>): Command {
  const orders = Object.keys(sorters);
  outputOption(command)
    .option('--limit <n>', 'show at most n (after sorting)', positive)
    .addOption(new Option('--sort <order>', `the order (default ${orders[0] ?? ''})`).choices(orders));
  return command;
}

export function applyList<T>(items: readonly T[], options: ListOptions, sorters: Record<string, Sorter<T>>): T[] {
  const order = options.sort ?? Object.keys(sorters)[0];
  const sorter = order === undefined ? undefined : sorters[order];
  const sorted = sorter === undefined ? [...items] : [...items].sort(sorter);
  return options.limit === undefined ? sorted : sorted.slice(0, options.limit);
}

/** Oldest/newest orders by an ISO timestamp (ties by id, so the order is stable). */
export function byTime<T extends { id: string }>(key: (item: T) => string, newestFirst: boolean): Sorter<T> {
  return (a, b) => {
    const diff = key(a).localeCompare(key(b)) || a.id.localeCompare(b.id);
    return newestFirst ? -diff : diff;
  };
}

export function byText<T>(key: (item: T) => string): Sorter<T> {
  return (a, b) => key(a).localeCompare(key(b));
}

/** A table with `wide` columns after the base ones under -o wide; JSON prints the items as they came. */
export function printTable<T>(
  ctx: Ctx,
  items: readonly T[],
  columns: { header: string; cell: (item: T) => string; wide?: boolean }[],
): void {
  if (ctx.json) {
    ctx.out.json(items);
    return;
  }
  const shown = columns.filter((column) => column.wide !== true || ctx.wide);
  table(
    ctx.out,
    shown.map((column) => column.header),
    items.map((item) => shown.map((column) => column.cell(item))),
  );
}

/** How long ago, kubectl style: 42s, 5m, 3h, 12d. */
export function age(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (Number.isNaN(seconds)) return '-';
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 2 * 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 2 * 86400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86400)}d`;
}

/** A cell cut to `max` characters, on one line. */
export function cut(text: string | null | undefined, max = 60): string {
  if (text === null || text === undefined || text === '') return '-';
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
