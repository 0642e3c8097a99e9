import { Argument, type Command } from 'commander';
import { confirm } from '../../conventions/confirm';
import { type Ctx, run } from '../../context';
import { paint } from '../../output';
import { resolveId } from '../../conventions/resolve-id';
import type { Task } from '../../schemas';

// `kandev tasks archive|unarchive|state`: what an operator changes about a task besides creating it.

export const TASK_STATES = ['todo', 'in_progress', 'review', 'done'];

function printTask(ctx: Ctx, verb: string, task: Task): void {
  if (ctx.json) ctx.out.json(task);
  else ctx.out.line(`${verb} task ${paint(ctx.out, 'bold', task.id)} (${task.title}): ${task.state}`);
}

export function addTaskActions(noun: Command): void {
  noun
    .command('archive')
    .argument('<task>', 'the task id (or a unique prefix)')
    .option('-y, --yes', 'do not ask')
    .description('archive a task: it leaves lists, its live sessions are stopped, launches are refused')
    .action(
      run(async (ctx, given: string) => {
        const id = await resolveId(ctx, 'task', given);
        await confirm(ctx, `archive task ${id} and stop its live sessions`);
        await ctx.api.ok(ctx.api.rest.DELETE('/api/tasks/{id}', { params: { path: { id } } }));
        printTask(ctx, 'archived', await ctx.api.ok(ctx.api.rest.GET('/api/tasks/{id}', { params: { path: { id } } })));
      }),
    );
  noun
    .command('unarchive')
    .argument('<task>', 'the task id (or a unique prefix)')
    .description('bring an archived task back to the lists')
    .action(
      run(async (ctx, given: string) => {
        const id = await resolveId(ctx, 'task', given);
        const task = await ctx.api.ok(ctx.api.rest.POST('/api/tasks/{id}/unarchive', { params: { path: { id } } }));
        printTask(ctx, 'unarchived', task);
      }),
    );
  noun
    .command('state')
    .argument('<task>', 'the task id (or a unique prefix)')
    .addArgument(new Argument('<state>', 'the new state').choices(TASK_STATES))
    .description("change a task's state (the backend refuses a transition it does not allow)")
    .action(
      run(async (ctx, given: string, state: string) => {
        const id = await resolveId(ctx, 'task', given);
        const task = await ctx.api.ok(
          ctx.api.rest.PATCH('/api/tasks/{id}', { params: { path: { id } }, body: { state: state as Task['state'] } }),
        );
        printTask(ctx, 'moved', task);
      }),
    );
}
