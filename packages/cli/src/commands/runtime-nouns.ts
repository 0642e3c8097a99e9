import { type Command, Option } from 'commander';
import { z } from 'zod';
import { run } from '../context';
import { usage } from '../errors';
import { paint } from '../output';
import { type Profile, ProfileSchema, SessionSchema, type SessionSummary, SessionSummarySchema } from '../schemas';
import { launch, type LaunchOptions, printLaunched } from './launch';
import { addNoun, collect, idArg, printList, printOne } from './noun-helpers';
import { agentSummary } from './session-agent';

// `kandev sessions …` and `kandev profiles …`: what runs a task's agent.

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
        const query = { task_id: options.task, state: options.state, executor: options.executor };
        const items = await ctx.api.all('/api/sessions', 'sessions', SessionSummarySchema, query);
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
        const session = await ctx.api.get(SessionSchema, `/api/sessions/${encodeURIComponent(id)}`);
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

interface CreateOptions {
  command: string;
  arg?: string[];
  env?: string[];
  mcp: boolean;
  permissionPolicy?: string;
}

export function profiles(program: Command): void {
  const noun = addNoun(program, ['profiles', 'profile'], 'list, show and create agent profiles');
  const list = z.object({ agent_profiles: z.array(ProfileSchema) });
  noun
    .command('ls')
    .description('list agent profiles')
    .action(
      run(async (ctx) => {
        const { agent_profiles: items } = await ctx.api.get(list, '/api/agent-profiles');
        printList(ctx, items, ['ID', 'NAME', 'MCP', 'PERMISSIONS', 'COMMAND'], (p: Profile) => [
          p.id,
          p.name,
          p.supports_mcp ? 'yes' : 'no',
          p.permission_policy ?? '',
          [p.command, ...(p.args ?? [])].join(' '),
        ]);
      }),
    );
  noun
    .command('show')
    .argument(idArg('profile'))
    .description('show one agent profile (env names only, never values)')
    .action(
      run(async (ctx, id: string) =>
        printOne(ctx, await ctx.api.get(ProfileSchema, `/api/agent-profiles/${encodeURIComponent(id)}`)),
      ),
    );
  noun
    .command('create')
    .argument('<name>')
    .requiredOption('-c, --command <command>', 'the agent executable')
    .option('-a, --arg <arg>', 'one argument (repeatable, in order)', collect)
    .option('--env <KEY=VALUE>', 'one environment variable (repeatable); stored sealed', collect)
    .option('--no-mcp', 'the agent cannot take MCP servers (supports_mcp: false)')
    .option(
      '--permission-policy <policy>',
      "ask (default), allow_all or deny_all: who answers the agent's permission requests",
    )
    .description('create an agent profile')
    .action(
      run(async (ctx, name: string, options: CreateOptions) => {
        const env: Record<string, string> = {};
        for (const pair of options.env ?? []) {
          const at = pair.indexOf('=');
          if (at <= 0) throw usage(`--env wants KEY=VALUE, got "${pair}"`);
          env[pair.slice(0, at)] = pair.slice(at + 1);
        }
        const body = {
          name,
          command: options.command,
          args: options.arg ?? [],
          env,
          supports_mcp: options.mcp,
          ...(options.permissionPolicy === undefined ? {} : { permission_policy: options.permissionPolicy }),
        };
        const profile = await ctx.api.post(ProfileSchema, '/api/agent-profiles', body);
        if (ctx.json) ctx.out.json(profile);
        else ctx.out.line(`created agent profile ${paint(ctx.out, 'bold', profile.id)} (${profile.name})`);
      }),
    );
}
