import { type Command, Option } from 'commander';
import { confirm } from '../../conventions/confirm';
import { run } from '../../context';
import { applyList, byText, byTime, listOptions, type ListOptions, printTable } from '../../conventions/lists';
import { paint } from '../../output';
import { resolveId } from '../../conventions/resolve-id';
import type { Token } from '../../schemas';
import { shortTime } from '../noun-helpers';

// `kandev tokens ls|create|revoke`: operator API tokens. A token itself is shown once, by create.

const ROLES = ['admin', 'operator', 'viewer'] as const;
type Role = (typeof ROLES)[number];

/** A repeatable option's values, in the order given. */
const collect = (value: string, previous: string[]) => [...previous, value];

const SORTS = {
  oldest: byTime<Token>((t) => t.created_at, false),
  newest: byTime<Token>((t) => t.created_at, true),
  name: byText<Token>((t) => t.name),
  used: byTime<Token>((t) => t.last_used_at ?? '', true),
};

export function addTokenCommands(program: Command): void {
  const noun = program.command('tokens').alias('token').description('operator API tokens: list, create, revoke');
  listOptions(noun.command('ls').description('list the active API tokens (never a token itself)'), SORTS).action(
    run(async (ctx, options: ListOptions) => {
      const { tokens } = await ctx.api.ok(ctx.api.rest.GET('/api/tokens'));
      printTable(ctx, applyList(tokens, options, SORTS), [
        { header: 'ID', cell: (t) => t.id },
        { header: 'NAME', cell: (t) => t.name },
        { header: 'PREFIX', cell: (t) => t.prefix },
        { header: 'ROLE', cell: (t) => t.role },
        { header: 'WORKSPACES', cell: (t) => t.workspaces?.join(',') ?? 'all' },
        { header: 'CREATED BY', cell: (t) => t.created_by ?? '-' },
        { header: 'CREATED', cell: (t) => shortTime(t.created_at) },
        { header: 'LAST USED', cell: (t) => (t.last_used_at === null ? 'never' : shortTime(t.last_used_at)) },
      ]);
    }),
  );
  noun
    .command('create')
    .argument('<name>', 'what the token is for')
    .addOption(
      new Option('--role <role>', "admin, operator or viewer: at most your own token's")
        .choices(ROLES)
        .default('admin'),
    )
    .option('--workspace <id>', 'limit the token to this workspace (repeat for several; default: all)', collect, [])
    .description('create an API token; the token is printed once, here')
    .action(
      run(async (ctx, name: string, options: { role: Role; workspace: string[] }) => {
        const workspaces = options.workspace.length === 0 ? null : options.workspace;
        const body = { name, role: options.role, workspaces };
        const created = await ctx.api.ok(ctx.api.rest.POST('/api/tokens', { body }));
        if (ctx.json) return ctx.out.json(created);
        const scope = created.workspaces === null ? 'every workspace' : `workspaces ${created.workspaces.join(', ')}`;
        process.stderr.write(
          `created ${created.role} token ${created.id} (${created.name}) for ${scope}; it is shown only now:\n`,
        );
        ctx.out.line(paint(ctx.out, 'bold', created.token));
      }),
    );
  noun
    .command('revoke')
    .argument('<token>', 'the token id (or a unique prefix)')
    .option('-y, --yes', 'do not ask')
    .description('revoke an API token: it is refused from then on')
    .action(
      run(async (ctx, given: string) => {
        const id = await resolveId(ctx, 'token', given);
        await confirm(ctx, `revoke API token ${id}`);
        await ctx.api.ok(ctx.api.rest.DELETE('/api/tokens/{id}', { params: { path: { id } } }));
        if (ctx.json) ctx.out.json({ revoked: id });
        else ctx.out.line(`revoked token ${id}`);
      }),
    );
}
