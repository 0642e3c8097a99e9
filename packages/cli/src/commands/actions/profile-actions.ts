import { type Command, Option } from 'commander';
import { confirm } from '../../conventions/confirm';
import { run } from '../../context';
import { usage } from '../../errors';
import { paint } from '../../output';
import { resolveId } from '../../conventions/resolve-id';
import { rawRequest } from '../../conventions/raw';
import type { Profile } from '../../schemas';
import { CliError } from '../../errors';
import { collect } from '../noun-helpers';
import { envPairs } from '../profile-file';

// `kandev profiles edit|rm`. Env values are write-only: they go to the backend (sealed at rest) and
// are never printed, here or by any other command; only their names are shown.

interface EditOptions {
  name?: string;
  command?: string;
  arg?: string[];
  env?: string[];
  permissionPolicy?: string;
}

/** The PATCH body: only what the command line names; nothing named is a usage error. */
function editBody(options: EditOptions): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (options.name !== undefined) body.name = options.name;
  if (options.command !== undefined) body.command = options.command;
  if (options.arg !== undefined) body.args = options.arg;
  if (options.env !== undefined) body.env = envPairs(options.env);
  if (options.permissionPolicy !== undefined) body.permission_policy = options.permissionPolicy;
  if (Object.keys(body).length === 0) {
    throw usage('nothing to change: give --permission-policy, --name, --command, --arg or --env');
  }
  return body;
}

const profilePath = (id: string) => `/api/agent-profiles/${encodeURIComponent(id)}`;

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
    .option('--env <KEY=VALUE>', 'the environment (repeatable; replaces it; values are stored sealed)', collect)
    .description('change an agent profile (sessions started afterwards use it)')
    .action(
      run(async (ctx, given: string, options: EditOptions) => {
        const body = editBody(options);
        const id = await resolveId(ctx, 'profile', given);
        // Raw: the document's PATCH body has only permission_policy so far; the backend judges the rest.
        const profile = await rawRequest<Profile>(ctx, 'PATCH', profilePath(id), body);
        if (profile === undefined) throw new CliError('unexpected', 'the backend answered without a body');
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
