import type { Ctx } from '../context';
import { CliError, usage } from '../errors';

// Every id argument takes a unique prefix of the id (as git takes a short hash). A full id is used as
// given; a prefix is looked up in the listing of its kind: one match is the id, several are a usage
// error naming them, none leaves the text as given so the backend's own "not found" answers.

const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHOWN_CANDIDATES = 10;

export interface Candidate {
  id: string;
  label: string;
}

/** Picks the one candidate `given` names (exactly or by prefix); undefined when none does. */
export function matchPrefix(what: string, given: string, candidates: readonly Candidate[]): string | undefined {
  if (candidates.some((candidate) => candidate.id === given)) return given;
  const matches = candidates.filter((candidate) => candidate.id.startsWith(given));
  if (matches.length <= 1) return matches[0]?.id;
  const shown = matches.slice(0, SHOWN_CANDIDATES).map((match) => `  ${match.id}  ${match.label}`);
  const more = matches.length > SHOWN_CANDIDATES ? [`  … ${matches.length - SHOWN_CANDIDATES} more`] : [];
  throw usage(`${what} id prefix "${given}" is ambiguous; it matches:\n${[...shown, ...more].join('\n')}`);
}

function allWorkspaces(ctx: Ctx) {
  return ctx.api.all('workspaces', (query) => ctx.api.rest.GET('/api/workspaces', { params: { query } }));
}

async function allTasks(ctx: Ctx): Promise<Candidate[]> {
  const found: Candidate[] = [];
  for (const workspace of await allWorkspaces(ctx)) {
    const filter = { workspace_id: workspace.id, include_archived: 'true' as const };
    const tasks = await ctx.api.all('tasks', (page) =>
      ctx.api.rest.GET('/api/tasks', { params: { query: { ...filter, ...page } } }),
    );
    found.push(...tasks.map((task) => ({ id: task.id, label: task.title })));
  }
  return found;
}

const listers = {
  task: allTasks,
  session: async (ctx: Ctx) =>
    (await ctx.api.all('sessions', (query) => ctx.api.rest.GET('/api/sessions', { params: { query } }))).map((s) => ({
      id: s.id,
      label: `${s.state}, task ${s.task_id}`,
    })),
  workspace: async (ctx: Ctx) => (await allWorkspaces(ctx)).map((w) => ({ id: w.id, label: w.name })),
  repository: async (ctx: Ctx) =>
    (await ctx.api.all('repositories', (query) => ctx.api.rest.GET('/api/repositories', { params: { query } }))).map(
      (r) => ({ id: r.id, label: r.name }),
    ),
  profile: async (ctx: Ctx) =>
    (await ctx.api.ok(ctx.api.rest.GET('/api/agent-profiles'))).agent_profiles.map((p) => ({
      id: p.id,
      label: p.name,
    })),
  token: async (ctx: Ctx) =>
    (await ctx.api.ok(ctx.api.rest.GET('/api/tokens'))).tokens.map((t) => ({ id: t.id, label: t.name })),
  question: async (ctx: Ctx) =>
    (await ctx.api.ok(ctx.api.rest.GET('/api/questions'))).questions.map((q) => ({
      id: q.id,
      label: `${q.state}, task ${q.task_id}`,
    })),
} satisfies Record<string, (ctx: Ctx) => Promise<Candidate[]>>;

export type IdKind = keyof typeof listers;

/** The full id of a `kind` that `given` names (a full id is used without asking the backend). */
export async function resolveId(ctx: Ctx, kind: IdKind, given: string): Promise<string> {
  if (FULL_ID.test(given)) return given;
  // A backend that cannot list this kind (404) still answers for the id as given.
  const candidates = await listers[kind](ctx).catch((error: unknown) => {
    if (error instanceof CliError && error.kind === 'not_found') return [];
    throw error;
  });
  return matchPrefix(kind, given, candidates) ?? given;
}

/** A session's or a task's id (follow takes either; ids never collide across the two). */
export async function resolveSessionOrTask(ctx: Ctx, given: string): Promise<string> {
  if (FULL_ID.test(given)) return given;
  const candidates = [...(await listers.session(ctx)), ...(await listers.task(ctx))];
  return matchPrefix('session or task', given, candidates) ?? given;
}

/** As resolveId, from candidates the caller listed (a session's prompts, a task's sources). */
export function resolveAmong(kind: string, given: string, candidates: readonly Candidate[]): string {
  if (FULL_ID.test(given)) return given;
  return matchPrefix(kind, given, candidates) ?? given;
}
