import type { Command } from 'commander';
import { type Ctx, run } from '../context';
import { resolveAmong, resolveId } from '../conventions/resolve-id';
import { printList } from './noun-helpers';

// `kandev grants <task>`: what the task's agent may do again without asking ("allow always",
// remembered by kandev per task); `kandev grants revoke <task> <grant>`: ask again next time.

function grantsOf(ctx: Ctx, task: string) {
  return ctx.api.ok(ctx.api.rest.GET('/api/tasks/{id}/permission-grants', { params: { path: { id: task } } }));
}

export function addGrantCommands(program: Command): void {
  const grants = program
    .command('grants')
    .argument('<task>', 'the task id (or a unique prefix)')
    .description('list a task\'s permission grants ("allow always" answers), oldest first')
    .action(
      run(async (ctx, given: string) => {
        const task = await resolveId(ctx, 'task', given);
        const { permission_grants: items } = await grantsOf(ctx, task);
        printList(ctx, items, ['ID', 'KIND', 'TITLE', 'GRANTED BY', 'CREATED'], (g) => [
          g.id,
          g.tool_kind === '' ? '-' : g.tool_kind,
          g.title,
          g.granted_by,
          g.created_at,
        ]);
      }),
    );
  grants
    .command('revoke')
    .argument('<task>', 'the task id (or a unique prefix)')
    .argument('<grant>', 'the grant id (or a unique prefix)')
    .description('revoke a grant: the next matching request is asked again')
    .action(
      run(async (ctx, givenTask: string, givenGrant: string) => {
        const task = await resolveId(ctx, 'task', givenTask);
        const { permission_grants: items } = await grantsOf(ctx, task);
        const grant = resolveAmong(
          'grant',
          givenGrant,
          items.map((g) => ({ id: g.id, label: g.title })),
        );
        await ctx.api.ok(
          ctx.api.rest.DELETE('/api/tasks/{id}/permission-grants/{grant_id}', {
            params: { path: { id: task, grant_id: grant } },
          }),
        );
        if (ctx.json) ctx.out.json({ revoked: grant });
        else ctx.out.line(`revoked ${grant}`);
      }),
    );
}
