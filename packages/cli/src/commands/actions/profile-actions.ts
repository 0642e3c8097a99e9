import { type Command, Option } from 'commander';
import { confirm } from '../../conventions/confirm';
import { run } from '../../context';
import { usage } from '../../errors';
import { paint } from '../../output';
import { resolveId } from '../../conventions/resolve-id';
import type { operations } from '@kandev/rest-client';
import { collect } from '../noun-helpers';
import { envPairs } from '../profile-file';

// `kandev profiles edit|rm`. Env values are write-only: they go to the backend (sealed at rest) and
// are never printed, here or by any other command; only their names are shown.

type EditBody = operations['updateAgentProfile']['requestBody']['content']['application/json'];

interface EditOptions {
  name?: string;
  command?: string;
  arg?: string[];
  env?: string[];
  unsetEnv?: string[];
  permissionPolicy?: EditBody['permission_policy'];
}

/** The env merge patch: `--env` sets a variable, `--unset-env` removes one; others are kept. */
function envPatch(options: EditOptions): Record<string, string | null> | undefined {
  if (options.env === undefined && options.unsetEnv === undefined) return undefined;
  const patch: Record<string, string | null> = { ...envPairs(options.env ?? []) };
  for (const key of options.unsetEnv ?? []) {
    if (key in patch) throw usage(`--env and --unset-env both name ${key}`);
    if (key === '' || key.includes('=')) throw usage('--unset-env wants a variable name (KEY), not KEY=VALUE');
    patch[key] = null;
  }
  return patch;
}

/** The PATCH body: only what the command line names; nothing named is a usage error. */
function editBody(options: EditOptions): EditBody {
  const body: EditBody = {};
  if (options.name !== undefined) body.name = options.name;
  if (options.command !== undefined) body.command = options.command;
  if (options.arg !== undefined) body.args = options.arg;
  const env = envPatch(options);
  if (env !== undefined) body.env = env;
  if (options.permissionPolicy !== undefined) body.permission_policy = options.permissionPolicy;
  if (Object.keys(body).length === 0) {
    throw usage('nothing to change: give --permission-policy, --name, --command, --arg, --env or --unset-env');
  }
  return body;
}

export function addProfileActions(noun: Command): void {
  noun
    .command('edit')
    .argument('<profile>', 'the profile id (or a unique prefix)')
    .addOption(
      new Option('--permission-policy <policy>', "who answers the agent's permission requests").choices([
        'ask',
        'allow_all',
        'deny_all',
      ]),
    )
    .option('--name <name>', 'a new name')
    .option('-c, --command <command>', 'a new agent executable')
    .option('-a, --arg <arg>', 'the arguments, in order (repeatable; replaces them all)', collect)
    .option('--env <KEY=VALUE>', 'set a variable (repeatable; others are kept; values are stored sealed)', collect)
    .option('--unset-env <KEY>', 'remove a variable (repeatable)', collect)
    .description('change an agent profile (sessions started afterwards use it)')
    .action(
      run(async (ctx, given: string, options: EditOptions) => {
        const body = editBody(options);
        const id = await resolveId(ctx, 'profile', given);
        const profile = await ctx.api.ok(
          ctx.api.rest.PATCH('/api/agent-profiles/{id}', { params: { path: { id } }, body }),
        );
        if (ctx.json) ctx.out.json(profile);
        else ctx.out.line(`changed agent profile ${paint(ctx.out, 'bold', profile.id)} (${profile.name})`);
      }),
    );
  noun
    .command('rm')
    .argument('<profile>', 'the profile id (or a unique prefix)')
    .option('-y, --yes', 'do not ask')
    .description('delete an agent profile (refused while a task uses it)')
    .action(
      run(async (ctx, given: string) => {
        const id = await resolveId(ctx, 'profile', given);
        await confirm(ctx, `delete agent profile ${id}`);
        await ctx.api.ok(ctx.api.rest.DELETE('/api/agent-profiles/{id}', { params: { path: { id } } }));
        if (ctx.json) ctx.out.json({ deleted: id });
        else ctx.out.line(`deleted agent profile ${id}`);
      }),
    );
}
