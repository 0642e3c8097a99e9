import type { Command } from 'commander';
import { firstLine, paint, table } from '../output';
import { run } from '../context';
import { resolveId } from '../conventions/resolve-id';

export function addToolsCommand(program: Command): void {
  program
    .command('tools')
    .argument('<session>', 'the session id (or a unique prefix)')
    .description('the tools a session is served, with its revision and providers')
    .action(
      run(async (ctx, given: string) => {
        const session = await resolveId(ctx, 'session', given);
        const tools = await ctx.api.ok(
          ctx.api.rest.GET('/api/sessions/{id}/tools', { params: { path: { id: session } } }),
        );
        if (ctx.json) {
          ctx.out.json(tools);
          return;
        }
        const revision =
          tools.applied_revision === tools.revision
            ? `revision ${tools.revision}`
            : `revision ${tools.revision} (agentctl has ${tools.applied_revision})`;
        const providers = tools.providers.length === 0 ? 'none' : tools.providers.join(', ');
        ctx.out.line(
          `session ${paint(ctx.out, 'bold', tools.session_id)}: ${revision}, providers ${providers}, questions ${tools.question_capability}`,
        );
        if (!tools.agentctl.reachable) {
          ctx.out.line(paint(ctx.out, 'yellow', 'agentctl did not answer: the list the stored config selects'));
        }
        table(
          ctx.out,
          ['TOOL', 'DESCRIPTION'],
          tools.tools.map((tool) => [tool.name, firstLine(tool.description)]),
        );
      }),
    );
}
