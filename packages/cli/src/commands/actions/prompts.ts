import type { Command } from 'commander';
import { confirm } from '../../conventions/confirm';
import { run } from '../../context';
import { age, applyList, byTime, cut, listOptions, type ListOptions, printTable } from '../../conventions/lists';
import { resolveAmong, resolveId } from '../../conventions/resolve-id';
import type { Ctx } from '../../context';
import type { Prompt } from '../../schemas';

// `kandev prompts ls <session>`: a session's prompt queue (queued, delivered, how each turn ended);
// `kandev prompts cancel <session> <prompt>`: drop a prompt that is still queued.

function promptsOf(ctx: Ctx, session: string) {
  return ctx.api.ok(ctx.api.rest.GET('/api/sessions/{id}/prompts', { params: { path: { id: session } } }));
}

const SORTS = {
  oldest: byTime<Prompt>((p) => p.created_at, false),
  newest: byTime<Prompt>((p) => p.created_at, true),
};

export function addPromptCommands(program: Command): void {
  const noun = program.command('prompts').description("a session's prompts: list, cancel a queued one");
  listOptions(
    noun
      .command('ls')
      .argument('<session>', 'the session id (or a unique prefix)')
      .description("list a session's prompts with their status and how their turn ended"),
    SORTS,
  ).action(
    run(async (ctx, given: string, options: ListOptions) => {
      const session = await resolveId(ctx, 'session', given);
      const { items } = await promptsOf(ctx, session);
      printTable(ctx, applyList(items, options, SORTS), [
        { header: 'ID', cell: (p) => p.id },
        { header: 'STATUS', cell: (p) => p.status },
        { header: 'AGE', cell: (p) => age(p.created_at) },
        { header: 'SOURCE', cell: (p) => p.source, wide: true },
        { header: 'STOP', cell: (p) => p.stop_reason ?? '-', wide: true },
        { header: 'ERROR', cell: (p) => cut(p.error, 40) },
        { header: 'PROMPT', cell: (p) => cut(p.prompt, 60) },
      ]);
    }),
  );
  noun
    .command('cancel')
    .argument('<session>', 'the session id (or a unique prefix)')
    .argument('<prompt>', 'the queued prompt id (or a unique prefix)')
    .option('-y, --yes', 'do not ask')
    .description('cancel a prompt that is still queued (a running turn: `kandev sessions cancel`)')
    .action(
      run(async (ctx, givenSession: string, givenPrompt: string) => {
        const session = await resolveId(ctx, 'session', givenSession);
        const { items } = await promptsOf(ctx, session);
        const prompt = resolveAmong(
          'prompt',
          givenPrompt,
          items.map((p) => ({ id: p.id, label: `${p.status}: ${cut(p.prompt, 40)}` })),
        );
        await confirm(ctx, `cancel queued prompt ${prompt}`);
        const cancelled = await ctx.api.ok(
          ctx.api.rest.DELETE('/api/sessions/{id}/prompts/{prompt_id}', {
            params: { path: { id: session, prompt_id: prompt } },
          }),
        );
        if (ctx.json) ctx.out.json(cancelled);
        else ctx.out.line(`cancelled prompt ${prompt}`);
      }),
    );
}
