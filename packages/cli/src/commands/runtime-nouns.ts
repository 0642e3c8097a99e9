import { type Command, Option } from 'commander';
import { type Ctx, run } from '../context';
import { age, applyList, byText, byTime, cut, listOptions, type ListOptions, printTable } from '../conventions/lists';
import { resolveId } from '../conventions/resolve-id';
import type { SessionSummary } from '../schemas';
import { launch, type LaunchOptions, printLaunched } from './launch';
import { addNoun, idArg, printOne } from './noun-helpers';
import { addSessionActions } from './actions/session-actions';
import { agentSummary } from './session-agent';

// `kandev sessions …`: what runs a task's agent (profiles: profiles.ts).

const SESSION_STATES = ['created', 'starting', 'running', 'waiting_for_input', 'completed', 'failed', 'cancelled'];

const SORTS = {
  oldest: byTime<SessionSummary>((s) => s.created_at, false),
  newest: byTime<SessionSummary>((s) => s.created_at, true),
  updated: byTime<SessionSummary>((s) => (typeof s.updated_at === 'string' ? s.updated_at : s.created_at), true),
  state: byText<SessionSummary>((s) => s.state),
};

/** Why a session is unwell, in its own words: its last error, else a tool refresh that did not land. */
function errorOf(session: SessionSummary): string | null {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return text(session.last_error) ?? text(session.refresh_error);
}

/** The state, with the backend's health word when it says more (`running (stuck)`); absent from older backends. */
function stateOf(session: SessionSummary): string {
  // Not in every backend's document yet: read as what it is, a word or nothing.
  const health = (session as { health?: unknown }).health;
  return typeof health === 'string' && health !== 'ok' && health !== session.state
    ? `${session.state} (${health})`
    : session.state;
}

interface ListSessionsOptions extends ListOptions {
  task?: string;
  state?: string;
  executor?: string;
}

/** -o wide asks each listed session's agent how it exited (one request per row, after --limit). */
async function exitReasons(ctx: Ctx, items: SessionSummary[]): Promise<Map<string, string>> {
  const reasons = new Map<string, string>();
  if (!ctx.wide) return reasons;
  for (const item of items) {
    const session = await ctx.api.ok(ctx.api.rest.GET('/api/sessions/{id}', { params: { path: { id: item.id } } }));
    const reason = session.agent?.exit_reason;
    if (typeof reason === 'string' && reason !== '') reasons.set(item.id, reason);
  }
  return reasons;
}

export function sessions(program: Command): void {
  const noun = addNoun(program, ['sessions', 'session'], 'list, show, launch, stop, resume and cancel sessions');
  listOptions(
    noun
      .command('ls')
      .option('-t, --task <id>', 'only this task (id or unique prefix)')
      .addOption(new Option('-s, --state <state>', 'only this state').choices(SESSION_STATES))
      .option('-e, --executor <name>', 'only this executor')
      .description('list sessions with their age and error'),
    SORTS,
  ).action(
    run(async (ctx, options: ListSessionsOptions) => {
      const task = options.task === undefined ? undefined : await resolveId(ctx, 'task', options.task);
      // commander checked --state against SESSION_STATES (the query also takes several, comma-separated).
      const filter = { task_id: task, state: options.state, executor: options.executor };
      const all = await ctx.api.all('sessions', (page) =>
        ctx.api.rest.GET('/api/sessions', { params: { query: { ...filter, ...page } } }),
      );
      const items = applyList(all, options, SORTS);
      const exits = await exitReasons(ctx, items);
      printTable(ctx, items, [
        { header: 'ID', cell: (s) => s.id },
        { header: 'TASK', cell: (s) => s.task_id },
        { header: 'STATE', cell: stateOf },
        { header: 'EXECUTOR', cell: (s) => s.executor },
        {
          header: 'REVISION',
          cell: (s) =>
            s.applied_revision === s.revision ? String(s.revision) : `${s.revision} (applied ${s.applied_revision})`,
        },
        { header: 'AGE', cell: (s) => age(s.created_at) },
        { header: 'EXIT', cell: (s) => cut(exits.get(s.id), 40), wide: true },
        { header: 'ERROR', cell: (s) => cut(errorOf(s), ctx.wide ? 120 : 50) },
      ]);
    }),
  );
  noun
    .command('show')
    .argument(idArg('session'), 'the session id (or a unique prefix)')
    .description('show one session, with what agentctl reports about it now')
    .action(
      run(async (ctx, given: string) => {
        const id = await resolveId(ctx, 'session', given);
        const session = await ctx.api.ok(ctx.api.rest.GET('/api/sessions/{id}', { params: { path: { id } } }));
        if (ctx.json) return ctx.out.json(session);
        // The agent in one line (status, mode, system prompt, MCP); the rest as the backend sent it.
        const agent = session.agent === null ? null : agentSummary(session.agent);
        printOne(ctx, { ...session, agent });
      }),
    );
  noun
    .command('create')
    .argument(idArg('task'), 'the task id (or a unique prefix)')
    .option('-e, --executor <name>', 'local, docker, remote or a named executor profile')
    .description('launch a session for a task (the same as `kandev launch`)')
    .action(
      run(async (ctx, task: string, options: LaunchOptions) => printLaunched(ctx, await launch(ctx, task, options))),
    );
  addSessionActions(noun);
}
