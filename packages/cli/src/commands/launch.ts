import type { Command } from 'commander';
import type { LaunchedSession as Launched } from '@kandev/rest-client';
import type { Ctx } from '../context';
import { usage } from '../errors';
import { fields, paint } from '../output';
import { run } from '../context';
import { resolveId } from '../conventions/resolve-id';

export interface LaunchOptions {
  executor?: string;
}

export async function launch(ctx: Ctx, given: string, options: LaunchOptions): Promise<Launched> {
  const task = await resolveId(ctx, 'task', given);
  const body = options.executor === undefined ? {} : { executor: options.executor };
  return ctx.api.ok(ctx.api.rest.POST('/api/tasks/{id}/sessions', { params: { path: { id: task } }, body }));
}

/** The MCP token is shown once, here, as the backend shows it: an MCP-only session needs it to connect. */
export function printLaunched(ctx: Ctx, launched: Launched, verb = 'launched'): void {
  if (ctx.json) {
    ctx.out.json(launched);
    return;
  }
  const config = launched.launch_config;
  ctx.out.line(`${verb} session ${paint(ctx.out, 'bold', launched.session_id)}`);
  fields(ctx.out, [
    ['agent', config.agent === null ? 'none (MCP only: connect an MCP client)' : config.agent.command],
    ['providers', config.providers.length === 0 ? 'none' : config.providers.join(', ')],
    ['questions', config.question_capability],
    ['revision', config.revision],
    ['mcp_url', launched.mcp_url],
    ['mcp_token', launched.mcp_token],
  ]);
}

export function addLaunchCommands(program: Command): void {
  program
    .command('launch')
    .argument('<task>', 'the task id (or a unique prefix)')
    .option('-e, --executor <name>', 'local, docker, remote or a named executor profile (default: the backend’s)')
    .description('launch a session for a task')
    .action(
      run(async (ctx, task: string, options: LaunchOptions) => printLaunched(ctx, await launch(ctx, task, options))),
    );
  program
    .command('prompt')
    .argument('<session>', 'the session id (or a unique prefix)')
    .argument('<text>', 'what to tell the agent')
    .description("queue a prompt for a session's agent")
    .action(
      run(async (ctx, given: string, text: string) => {
        if (text.trim() === '') throw usage('the prompt is blank');
        const session = await resolveId(ctx, 'session', given);
        const queued = await ctx.api.ok(
          ctx.api.rest.POST('/api/sessions/{id}/prompts', {
            params: { path: { id: session } },
            body: { prompt: text },
          }),
        );
        if (ctx.json) ctx.out.json(queued);
        else ctx.out.line(`queued prompt ${paint(ctx.out, 'bold', queued.queued_prompt_id)} (${queued.status})`);
      }),
    );
}
