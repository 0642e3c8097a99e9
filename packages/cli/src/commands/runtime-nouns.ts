import type { Command } from 'commander';
import { type Ctx, run } from '../context';
import { age, cut, printTable } from '../conventions/lists';
import { flagQuery, serverListOptions, type ServerListOptions, wordsOf } from '../conventions/server-lists';
import { resolveId } from '../conventions/resolve-id';
import type { SessionSummary } from '../schemas';
import { launch, type LaunchOptions, printLaunched } from './launch';
import { addNoun, idArg, printOne } from './noun-helpers';
import { addSessionActions } from './actions/session-actions';
import { agentSummary } from './session-agent';

// `kandev sessions …`: what runs a task's agent (profiles: profiles.ts).

const SESSION_STATES = ['created', 'starting', 'running', 'waiting_for_input', 'completed', 'failed', 'cancelled'];

const ORDERS = { newest: 'created_desc', oldest: 'created_asc' } as const;

/** Why a session is unwell, in its own words: its last error, else a tool refresh that did not land. */
function errorOf(session: SessionSummary): string | null {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return text(session.last_error) ?? text(session.refresh_error);
}

/** The state, with the backend's health word when it says more (`running (warning)`). */
function stateOf(session: SessionSummary): string {
  const health: string = session.health;
  return health !== 'ok' && health !== session.state ? `${session.state} (${health})` : session.state;
}

interface ListSessionsOptions extends ServerListOptions {
  task?: string;
  state?: string;
  executor?: string;
  failed?: boolean;
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
  serverListOptions(
    noun
      .command('ls')
      .option('-t, --task <id>', 'only this task (id or unique prefix)')
      .option(
        '-s, --state <state>',
        `only these states (comma-separated: ${SESSION_STATES.join(', ')})`,
        wordsOf(SESSION_STATES),
      )
      .option('--failed', 'only failed sessions')
      .option('--no-failed', 'every session but the failed ones')
      .option('-e, --executor <name>', 'only this executor')
      .description('list sessions, newest first, with their age and error'),
    ORDERS,
  ).action(
    run(async (ctx, options: ListSessionsOptions) => {
      const task = options.task === undefined ? undefined : await resolveId(ctx, 'task', options.task);
      const filter = {
        task_id: task,
        state: options.state,
        executor: options.executor,
        failed: flagQuery(options.failed),
        sort: ORDERS[(options.sort ?? 'newest') as keyof typeof ORDERS],
      };
      const items = await ctx.api.upTo('sessions', options.limit, (page) =>
        ctx.api.rest.GET('/api/sessions', { params: { query: { ...filter, ...page } } }),
      );
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
