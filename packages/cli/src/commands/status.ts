import type { Command } from 'commander';
import type { Ctx } from '../context';
import { CliError } from '../errors';
import { fields, paint } from '../output';
import { AgentctlStatusSchema, ReadySchema } from '../schemas';
import { run } from '../context';

/** /readyz answers 503 with a body when not ready: that is a status to show, not a failure. */
async function readiness(ctx: Ctx) {
  const response = await ctx.api.send(ctx.api.url('/readyz'), { headers: { accept: 'application/json' } });
  if (response.status !== 200 && response.status !== 503) await ctx.api.check(response);
  const parsed = ReadySchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new CliError('unexpected', `/readyz: unexpected answer (HTTP ${response.status})`);
  return parsed.data;
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
    .command('status')
    .description('is the backend up and ready, is the token accepted, which agentctls answer')
    .action(
      run(async (ctx) => {
        const ready = await readiness(ctx);
        const agentctl = await ctx.api.get(AgentctlStatusSchema, '/api/agentctl');
        if (ctx.json) {
          ctx.out.json({ url: ctx.api.config.url, ready, agentctl });
          return;
        }
        const ok = ready.status === 'ready';
        ctx.out.line(
          `backend ${ctx.api.config.url}: ${paint(ctx.out, ok ? 'green' : 'red', ready.status)} (token accepted)`,
        );
        const executors = agentctl.executors ?? [];
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
