import type { Command } from 'commander';
import type { Ctx } from '../context';
import { CliError } from '../errors';
import { fields, paint } from '../output';
import { run } from '../context';

/** /readyz answers 503 with a body when not ready: that is a status to show, not a failure. */
async function readiness(ctx: Ctx) {
  const answer = ctx.api.rest.GET('/readyz');
  const { response, error } = await answer.catch((failure: unknown) => {
    // Unreachable stays `unavailable`; anything else is a body that is not JSON.
    throw failure instanceof CliError ? failure : new CliError('unexpected', '/readyz: unexpected answer (not JSON)');
  });
  // Not ready is documented with the same body, as a 503.
  if (response.status === 503 && error !== undefined) return error;
  return ctx.api.ok(answer);
}

/** A readiness check as words: "ok", or "local reachable, docker unreachable" for a map of them. */
function checkText(value: unknown): string {
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value)
      .map(([name, state]) => `${name} ${String(state)}`)
      .join(', ');
  }
  return String(value);
}

export function addStatusCommand(program: Command): void {
  program
    .command('whoami')
    .description('the API token in use: its name, role (admin, operator, viewer) and workspaces')
    .action(
      run(async (ctx) => {
        const me = await ctx.api.ok(ctx.api.rest.GET('/api/me'));
        if (ctx.json) return ctx.out.json(me);
        fields(ctx.out, [
          ['token', me.token_id === null ? `${me.name} (configured)` : `${me.name} (${me.token_id})`],
          ['role', me.role],
          ['workspaces', me.workspaces === null ? 'all' : me.workspaces.join(', ')],
        ]);
      }),
    );
  program
    .command('status')
    .description('is the backend up and ready, is the token accepted, which agentctls answer')
    .action(
      run(async (ctx) => {
        const ready = await readiness(ctx);
        const agentctl = await ctx.api.ok(ctx.api.rest.GET('/api/agentctl'));
        if (ctx.json) {
          ctx.out.json({ url: ctx.api.config.url, ready, agentctl });
          return;
        }
        const ok = ready.status === 'ready';
        ctx.out.line(
          `backend ${ctx.api.config.url}: ${paint(ctx.out, ok ? 'green' : 'red', ready.status)} (token accepted)`,
        );
        const executors = agentctl.executors;
        fields(ctx.out, [
          ...Object.entries(ready.checks ?? {}).map(([name, value]): [string, unknown] => [name, checkText(value)]),
          ...executors.map((e): [string, unknown] => [
            `executor ${e.name}`,
            `${e.kind}, ${e.reachable ? 'reachable' : 'unreachable'}`,
          ]),
        ]);
        if (!ok) throw new CliError('unavailable', 'the backend is not ready');
      }),
    );
}
