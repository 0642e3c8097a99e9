import type { Command } from 'commander';
import type { paths } from '@kandev/rest-client';
import { run } from '../context';
import { usage } from '../errors';
import { paint } from '../output';
import type { Profile } from '../schemas';
import { applyList, byText, byTime, listOptions, type ListOptions, printTable } from '../conventions/lists';
import { resolveId } from '../conventions/resolve-id';
import { addNoun, collect, idArg, printOne } from './noun-helpers';
import { addProfileActions } from './actions/profile-actions';
import { envPairs, loadProfileFile } from './profile-file';

// `kandev profiles …`: the agent a task's sessions run.

interface CreateOptions {
  from?: string;
  command?: string;
  arg?: string[];
  env?: string[];
  mcp?: boolean;
  permissionPolicy?: string;
}

type CreateBody = paths['/api/agent-profiles']['post']['requestBody']['content']['application/json'];

/** The POST body: a --from file as shipped, with the command line's name, command and flags on top. */
function createBody(name: string | undefined, options: CreateOptions): CreateBody {
  const file = options.from === undefined ? undefined : loadProfileFile(options.from);
  const profileName = name ?? file?.name;
  const command = options.command ?? file?.command;
  if (profileName === undefined) throw usage('a profile needs a name: give one, or --from a profile file');
  if (command === undefined) throw usage('a profile needs a command: --command, or --from a profile file');
  const policy = options.permissionPolicy ?? file?.permission_policy;
  return {
    name: profileName,
    command,
    args: options.arg ?? file?.args ?? [],
    env: { ...file?.env, ...envPairs(options.env ?? []) },
    // --no-mcp is the only way the command line says anything about MCP (commander defaults it to true).
    supports_mcp: options.mcp === false ? false : (file?.supports_mcp ?? true),
    // The backend checks the policy name (400 names the ones it takes).
    ...(policy === undefined ? {} : { permission_policy: policy as CreateBody['permission_policy'] }),
  };
}

const SORTS = {
  name: byText<Profile>((p) => p.name),
  oldest: byTime<Profile>((p) => p.created_at ?? '', false),
  newest: byTime<Profile>((p) => p.created_at ?? '', true),
};

export function profiles(program: Command): void {
  const noun = addNoun(program, ['profiles', 'profile'], 'list, show, create, edit and delete agent profiles');
  listOptions(noun.command('ls').description('list agent profiles'), SORTS).action(
    run(async (ctx, options: ListOptions) => {
      const { agent_profiles: items } = await ctx.api.ok(ctx.api.rest.GET('/api/agent-profiles'));
      printTable(ctx, applyList(items, options, SORTS), [
        { header: 'ID', cell: (p) => p.id },
        { header: 'NAME', cell: (p) => p.name },
        { header: 'MCP', cell: (p) => (p.supports_mcp ? 'yes' : 'no') },
        { header: 'PERMISSIONS', cell: (p) => p.permission_policy ?? '' },
        { header: 'ENV', cell: (p) => (Array.isArray(p.env_keys) ? p.env_keys.join(',') : '') || '-', wide: true },
        { header: 'COMMAND', cell: (p) => [p.command, ...(p.args ?? [])].join(' ') },
      ]);
    }),
  );
  noun
    .command('show')
    .argument(idArg('profile'))
    .description('show one agent profile (env names only, never values)')
    .action(
      run(async (ctx, given: string) => {
        const id = await resolveId(ctx, 'profile', given);
        printOne(ctx, await ctx.api.ok(ctx.api.rest.GET('/api/agent-profiles/{id}', { params: { path: { id } } })));
      }),
    );
  noun
    .command('create')
    .argument('[name]', "the profile's name (default: the --from file's)")
    .option('-f, --from <file>', 'a profile file (e.g. docs/agent-profiles/claude-agent-acp.json), posted as is')
    .option('-c, --command <command>', 'the agent executable')
    .option('-a, --arg <arg>', 'one argument (repeatable, in order; replaces the file args)', collect)
    .option('--env <KEY=VALUE>', 'one environment variable (repeatable, added to the file env); stored sealed', collect)
    .option('--no-mcp', 'the agent cannot take MCP servers (supports_mcp: false)')
    .option(
      '--permission-policy <policy>',
      "ask (default), allow_all or deny_all: who answers the agent's permission requests",
    )
    .description('create an agent profile')
    .action(
      run(async (ctx, name: string | undefined, options: CreateOptions) => {
        const profile = await ctx.api.ok(ctx.api.rest.POST('/api/agent-profiles', { body: createBody(name, options) }));
        if (ctx.json) ctx.out.json(profile);
        else ctx.out.line(`created agent profile ${paint(ctx.out, 'bold', profile.id)} (${profile.name})`);
      }),
    );
  addProfileActions(noun);
}
