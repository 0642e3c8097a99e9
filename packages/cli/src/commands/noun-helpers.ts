import type { Command } from 'commander';
import type { Ctx } from '../context';
import { usage } from '../errors';
import { resolveId } from '../conventions/resolve-id';
import { fields, table } from '../output';
import type { Workspace } from '../schemas';

// What the noun commands share: list every page, the default workspace, printing lists and objects.

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function shortTime(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

export async function allWorkspaces(ctx: Ctx): Promise<Workspace[]> {
  return ctx.api.all('workspaces', (query) => ctx.api.rest.GET('/api/workspaces', { params: { query } }));
}

/** The workspace named by --workspace, or the only one there is. */
export async function workspaceOf(ctx: Ctx, given: string | undefined): Promise<string> {
  if (given !== undefined) return resolveId(ctx, 'workspace', given);
  const workspaces = await allWorkspaces(ctx);
  if (workspaces.length === 1 && workspaces[0] !== undefined) return workspaces[0].id;
  throw usage(
    workspaces.length === 0
      ? 'no workspace yet: create one with `kandev workspaces create <name>`'
      : `${workspaces.length} workspaces: say which with --workspace <id>`,
  );
}

export function printList<T>(ctx: Ctx, items: T[], header: string[], row: (item: T) => string[]): void {
  if (ctx.json) ctx.out.json(items);
  else table(ctx.out, header, items.map(row));
}

export function printOne(ctx: Ctx, item: Record<string, unknown>): void {
  if (ctx.json) ctx.out.json(item);
  else fields(ctx.out, Object.entries(item));
}

export function addNoun(program: Command, names: [string, string], description: string): Command {
  return program.command(names[0]).alias(names[1]).description(description);
}

export const idArg = (what: string) => `<${what}>`;
