import type { Command } from 'commander';
import { confirm } from '../../conventions/confirm';
import { type Ctx, run } from '../../context';
import { notFound } from '../../errors';
import { outputOption, printTable } from '../../conventions/lists';
import { paint } from '../../output';
import { resolveAmong, resolveId } from '../../conventions/resolve-id';
import type { Repository, SourceBatch, SourceRemoval } from '../../schemas';
import type { operations } from '@kandev/rest-client';

// `kandev sources ls|add|rm <task> …`: the repositories attached to a task (its provider set). Adding
// or removing one refreshes the tools of the task's live sessions; --wait waits for agentctl.

async function attached(ctx: Ctx, task: string): Promise<Repository[]> {
  const found = await ctx.api.ok(ctx.api.rest.GET('/api/tasks/{id}', { params: { path: { id: task } } }));
  const repos: Repository[] = [];
  for (const id of found.repository_ids) {
    repos.push(await ctx.api.ok(ctx.api.rest.GET('/api/repositories/{id}', { params: { path: { id } } })));
  }
  return repos;
}

/** A source argument: a git URL (scp-like too), a local path with --local, else a registered repository. */
async function sourceOf(ctx: Ctx, text: string, local: boolean): Promise<Source> {
  if (local) return { local_path: text };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^[^/\s]+@[^/\s]+:/.test(text)) return { remote_url: text };
  return { repository_id: await resolveId(ctx, 'repository', text) };
}

type Source = operations['addWorkspaceSources']['requestBody']['content']['application/json']['sources'][number];

interface ChangeOptions {
  wait?: boolean;
}

function printChange(ctx: Ctx, verb: string, answer: SourceBatch | SourceRemoval): void {
  if (ctx.json) return ctx.out.json(answer);
  const providers = answer.providers.length === 0 ? 'none' : answer.providers.join(', ');
  ctx.out.line(`${verb}; providers now ${providers}; live sessions: ${answer.refresh.status}`);
}

export function addSourceCommands(program: Command): void {
  const noun = program
    .command('sources')
    .alias('source')
    .description("a task's attached repositories: list, add, remove");
  outputOption(
    noun
      .command('ls')
      .argument('<task>', 'the task id (or a unique prefix)')
      .description("list a task's attached repositories"),
  ).action(
    run(async (ctx, given: string) => {
      const repos = await attached(ctx, await resolveId(ctx, 'task', given));
      printTable(ctx, repos, [
        { header: 'ID', cell: (r) => r.id },
        { header: 'NAME', cell: (r) => r.name },
        { header: 'PROVIDER', cell: (r) => r.provider ?? '-' },
        { header: 'SOURCE', cell: (r) => r.remote_url ?? r.local_path ?? '-' },
      ]);
    }),
  );
  noun
    .command('add')
    .argument('<task>', 'the task id (or a unique prefix)')
    .argument('<source...>', 'a repository id (or prefix), a git remote URL, or a path with --local')
    .option('--local', 'the sources are local paths')
    .option('--wait', "wait until agentctl applied the live sessions' new tools")
    .description('attach repositories to a task (one batch: all or nothing)')
    .action(
      run(async (ctx, given: string, sources: string[], options: ChangeOptions & { local?: boolean }) => {
        const task = await resolveId(ctx, 'task', given);
        const body = { sources: await Promise.all(sources.map((s) => sourceOf(ctx, s, options.local === true))) };
        const answer = await ctx.api.ok(
          ctx.api.rest.POST('/api/tasks/{id}/workspace-sources', {
            params: { path: { id: task }, query: options.wait === true ? { wait: 'applied' } : {} },
            body,
          }),
        );
        printChange(ctx, `added ${answer.added.length} to ${paint(ctx.out, 'bold', task)}`, answer);
      }),
    );
  noun
    .command('rm')
    .argument('<task>', 'the task id (or a unique prefix)')
    .argument('<repository>', 'the attached repository id (or a unique prefix)')
    .option('--wait', "wait until agentctl applied the live sessions' new tools")
    .option('-y, --yes', 'do not ask')
    .description('detach a repository from a task (its checkout stays, unmanaged)')
    .action(
      run(async (ctx, given: string, givenRepo: string, options: ChangeOptions) => {
        const task = await resolveId(ctx, 'task', given);
        const repos = await attached(ctx, task);
        const repo = resolveAmong(
          'repository',
          givenRepo,
          repos.map((r) => ({ id: r.id, label: r.name })),
        );
        if (!repos.some((r) => r.id === repo)) throw notFound(`repository ${repo} is not attached to task ${task}`);
        await confirm(ctx, `detach repository ${repo} from task ${task}`);
        const answer = await ctx.api.ok(
          ctx.api.rest.DELETE('/api/tasks/{id}/workspace-sources/{repository_id}', {
            params: {
              path: { id: task, repository_id: repo },
              query: options.wait === true ? { wait: 'applied' } : {},
            },
          }),
        );
        printChange(ctx, `removed ${repo} from ${paint(ctx.out, 'bold', task)}`, answer);
      }),
    );
}
