import type { Command } from 'commander';
import { confirm } from '../../conventions/confirm';
import { type Ctx, run } from '../../context';
import { fields, paint } from '../../output';
import { resolveId } from '../../conventions/resolve-id';
import { printLaunched } from '../launch';

// `kandev sessions stop|resume|relaunch|cancel`: a session's lifecycle from the command line.

async function printSession(ctx: Ctx, verb: string, id: string): Promise<void> {
  const session = await ctx.api.ok(ctx.api.rest.GET('/api/sessions/{id}', { params: { path: { id } } }));
  if (ctx.json) return ctx.out.json(session);
  ctx.out.line(`${verb} session ${paint(ctx.out, 'bold', session.id)}: ${session.state}`);
  if (session.last_error !== null) fields(ctx.out, [['last_error', session.last_error]]);
}

export function addSessionActions(noun: Command): void {
  noun
    .command('stop')
    .argument('<session>', 'the session id (or a unique prefix)')
    .option('-y, --yes', 'do not ask')
    .description("stop a session and its agent's process group (it ends cancelled)")
    .action(
      run(async (ctx, given: string) => {
        const id = await resolveId(ctx, 'session', given);
        await confirm(ctx, `stop session ${id} and its agent`);
        await ctx.api.ok(ctx.api.rest.POST('/api/sessions/{id}/stop', { params: { path: { id } }, body: {} }));
        await printSession(ctx, 'stopped', id);
      }),
    );
  noun
    .command('resume')
    .argument('<session>', 'the session id (or a unique prefix)')
    .description('resume a session with a fresh MCP token (printed once)')
    .action(
      run(async (ctx, given: string) => {
        const id = await resolveId(ctx, 'session', given);
        const resumed = await ctx.api.ok(
          ctx.api.rest.POST('/api/sessions/{id}/resume', { params: { path: { id } }, body: {} }),
        );
        printLaunched(ctx, resumed, 'resumed');
      }),
    );
  noun
    .command('relaunch')
    .argument('<session>', 'the session id (or a unique prefix)')
    .description("start a session's agent again from its task (a new MCP token, printed once)")
    .action(
      run(async (ctx, given: string) => {
        const id = await resolveId(ctx, 'session', given);
        const relaunched = await ctx.api.ok(
          ctx.api.rest.POST('/api/sessions/{id}/relaunch', { params: { path: { id } }, body: {} }),
        );
        printLaunched(ctx, relaunched, 'relaunched');
      }),
    );
  noun
    .command('cancel')
    .argument('<session>', 'the session id (or a unique prefix)')
    .option('-y, --yes', 'do not ask')
    .description('cancel the running turn (the session stays; its agent waits for the next prompt)')
    .action(
      run(async (ctx, given: string) => {
        const id = await resolveId(ctx, 'session', given);
        await confirm(ctx, `cancel the running turn of session ${id}`);
        const answer = await ctx.api.ok(
          ctx.api.rest.POST('/api/sessions/{id}/cancel', { params: { path: { id } }, body: {} }),
        );
        if (ctx.json) ctx.out.json(answer);
        else if (!answer.cancelled) ctx.out.line(`no turn was running in session ${id}`);
        else ctx.out.line(`cancelled the turn of prompt ${answer.prompt_id ?? '-'} in session ${id}`);
      }),
    );
}
