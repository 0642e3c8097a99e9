import { type Command, Option } from 'commander';
import { run } from '../context';
import type { paths } from '@kandev/rest-client';
import type { SessionSummary } from '../schemas';
import { launch, type LaunchOptions, printLaunched } from './launch';
import { addNoun, idArg, printList, printOne } from './noun-helpers';
import { agentSummary } from './session-agent';

// `kandev sessions …`: what runs a task's agent (profiles: profiles.ts).

type ListSessionsQuery = NonNullable<paths['/api/sessions']['get']['parameters']['query']>;

const SESSION_STATES = ['created', 'starting', 'running', 'waiting_for_input', 'completed', 'failed', 'cancelled'];

export function sessions(program: Command): void {
  const noun = addNoun(program, ['sessions', 'session'], 'list, show and launch sessions');
  noun
    .command('ls')
    .option('-t, --task <id>', 'only this task')
    .addOption(new Option('-s, --state <state>', 'only this state').choices(SESSION_STATES))
    .option('-e, --executor <name>', 'only this executor')
    .description('list sessions, oldest first')
    .action(
      run(async (ctx, options: { task?: string; state?: string; executor?: string }) => {
        // commander checked --state against SESSION_STATES.
        const state = options.state as ListSessionsQuery['state'];
        const filter = { task_id: options.task, state, executor: options.executor };
        const items = await ctx.api.all('sessions', (page) =>
          ctx.api.rest.GET('/api/sessions', { params: { query: { ...filter, ...page } } }),
        );
        printList(ctx, items, ['ID', 'TASK', 'STATE', 'EXECUTOR', 'REVISION'], (s: SessionSummary) => [
          s.id,
          s.task_id,
          s.state,
          s.executor,
          s.applied_revision === s.revision ? String(s.revision) : `${s.revision} (applied ${s.applied_revision})`,
        ]);
      }),
    );
  noun
    .command('show')
    .argument(idArg('session'))
    .description('show one session, with what agentctl reports about it now')
    .action(
      run(async (ctx, id: string) => {
        const session = await ctx.api.ok(ctx.api.rest.GET('/api/sessions/{id}', { params: { path: { id } } }));
        if (ctx.json) return ctx.out.json(session);
        // The agent in one line (status, mode, system prompt, MCP); the rest as the backend sent it.
        const agent = session.agent === null ? null : agentSummary(session.agent);
        printOne(ctx, { ...session, agent });
      }),
    );
  noun
    .command('create')
    .argument(idArg('task'))
    .option('-e, --executor <name>', 'local, docker, remote or a named executor profile')
    .description('launch a session for a task (the same as `kandev launch`)')
    .action(
      run(async (ctx, task: string, options: LaunchOptions) => printLaunched(ctx, await launch(ctx, task, options))),
    );
}
