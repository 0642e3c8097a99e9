import type { Command } from 'commander';
import { run } from '../context';
import { applyList, byText, byTime, listOptions, type ListOptions, printTable } from '../conventions/lists';
import { paint } from '../output';
import { resolveId } from '../conventions/resolve-id';
import type { Repository, Workspace } from '../schemas';
import { addNoun, allWorkspaces, collect, idArg, printOne, shortTime, workspaceOf } from './noun-helpers';
import { profiles } from './profiles';
import { sessions } from './runtime-nouns';
import { addTaskActions } from './actions/task-actions';
import { taskList } from './task-list';
import { addTimelineCommands } from './timeline';

// `kandev <noun> ls|show|create` for workspaces, repos, tasks, sessions and profiles (singular too).

const WORKSPACE_SORTS = {
  oldest: byTime<Workspace>((w) => w.created_at, false),
  newest: byTime<Workspace>((w) => w.created_at, true),
  name: byText<Workspace>((w) => w.name),
};
const REPO_SORTS = {
  oldest: byTime<Repository>((r) => r.created_at, false),
  newest: byTime<Repository>((r) => r.created_at, true),
  name: byText<Repository>((r) => r.name),
};

function workspaces(program: Command): void {
  const noun = addNoun(program, ['workspaces', 'workspace'], 'list, show and create workspaces');
  listOptions(noun.command('ls').description('list workspaces'), WORKSPACE_SORTS).action(
    run(async (ctx, options: ListOptions) =>
      printTable(ctx, applyList(await allWorkspaces(ctx), options, WORKSPACE_SORTS), [
        { header: 'ID', cell: (w) => w.id },
        { header: 'NAME', cell: (w) => w.name },
        { header: 'CREATED', cell: (w) => shortTime(w.created_at) },
      ]),
    ),
  );
  noun
    .command('show')
    .argument(idArg('workspace'))
    .description('show one workspace')
    .action(
      run(async (ctx, given: string) => {
        const id = await resolveId(ctx, 'workspace', given);
        printOne(ctx, await ctx.api.ok(ctx.api.rest.GET('/api/workspaces/{id}', { params: { path: { id } } })));
      }),
    );
  noun
    .command('create')
    .argument('<name>')
    .description('create a workspace')
    .action(
      run(async (ctx, name: string) => {
        const workspace = await ctx.api.ok(ctx.api.rest.POST('/api/workspaces', { body: { name } }));
        if (ctx.json) ctx.out.json(workspace);
        else ctx.out.line(`created workspace ${paint(ctx.out, 'bold', workspace.id)} (${workspace.name})`);
      }),
    );
}

function repositories(program: Command): void {
  const noun = addNoun(program, ['repos', 'repo'], 'list, show and register repositories');
  listOptions(
    noun.command('ls').option('-w, --workspace <id>', 'only this workspace').description('list repositories'),
    REPO_SORTS,
  ).action(
    run(async (ctx, options: ListOptions & { workspace?: string }) => {
      const workspace =
        options.workspace === undefined ? undefined : await resolveId(ctx, 'workspace', options.workspace);
      const repos = await ctx.api.all('repositories', (page) =>
        ctx.api.rest.GET('/api/repositories', { params: { query: { workspace_id: workspace, ...page } } }),
      );
      printTable(ctx, applyList(repos, options, REPO_SORTS), [
        { header: 'ID', cell: (r) => r.id },
        { header: 'NAME', cell: (r) => r.name },
        { header: 'PROVIDER', cell: (r) => r.provider ?? '-' },
        { header: 'SOURCE', cell: (r) => r.remote_url ?? r.local_path ?? '-' },
        { header: 'WORKSPACE', cell: (r) => r.workspace_id, wide: true },
        { header: 'CREATED', cell: (r) => shortTime(r.created_at), wide: true },
      ]);
    }),
  );
  noun
    .command('show')
    .argument(idArg('repository'))
    .description('show one repository')
    .action(
      run(async (ctx, given: string) => {
        const id = await resolveId(ctx, 'repository', given);
        printOne(ctx, await ctx.api.ok(ctx.api.rest.GET('/api/repositories/{id}', { params: { path: { id } } })));
      }),
    );
  noun
    .command('create')
    .argument('<remote-url-or-path>', 'a git remote URL, or a local directory with --local')
    .option('-w, --workspace <id>', 'the workspace (default: the only one)')
    .option('--local', 'the argument is a local path')
    .option('--provider <name>', 'github or gitlab, when the host does not say')
    .option('--name <name>', 'a display name')
    .description('register a repository in a workspace')
    .action(
      run(
        async (
          ctx,
          source: string,
          options: { workspace?: string; local?: boolean; provider?: string; name?: string },
        ) => {
          const body = {
            workspace_id: await workspaceOf(ctx, options.workspace),
            ...(options.local === true ? { local_path: source } : { remote_url: source }),
            provider: options.provider,
            name: options.name,
          };
          const repo = await ctx.api.ok(ctx.api.rest.POST('/api/repositories', { body }));
          if (ctx.json) ctx.out.json(repo);
          else
            ctx.out.line(
              `created repository ${paint(ctx.out, 'bold', repo.id)} (${repo.name}, provider ${repo.provider ?? 'none'})`,
            );
        },
      ),
    );
}

function tasks(program: Command): void {
  const noun = addNoun(program, ['tasks', 'task'], 'list, show and create tasks');
  taskList(noun);
  noun
    .command('show')
    .argument(idArg('task'))
    .description('show one task')
    .action(
      run(async (ctx, given: string) => {
        const id = await resolveId(ctx, 'task', given);
        printOne(ctx, await ctx.api.ok(ctx.api.rest.GET('/api/tasks/{id}', { params: { path: { id } } })));
      }),
    );
  noun
    .command('create')
    .argument('<title>')
    .option('-w, --workspace <id>', 'the workspace (default: the only one)')
    .option('-r, --repo <id>', 'attach a repository (repeatable)', collect)
    .option('-p, --profile <id>', 'the agent profile that runs its sessions')
    .option('--parent <id>', 'the parent task')
    .option('--autopilot', 'an autopilot task (asks its parent, not an operator)')
    .description('create a task')
    .action(
      run(
        async (
          ctx,
          title: string,
          options: { workspace?: string; repo?: string[]; profile?: string; parent?: string; autopilot?: boolean },
        ) => {
          const body = {
            workspace_id: await workspaceOf(ctx, options.workspace),
            title,
            repository_ids:
              options.repo === undefined
                ? undefined
                : await Promise.all(options.repo.map((repo) => resolveId(ctx, 'repository', repo))),
            agent_profile_id:
              options.profile === undefined ? undefined : await resolveId(ctx, 'profile', options.profile),
            parent_id: options.parent === undefined ? undefined : await resolveId(ctx, 'task', options.parent),
            autopilot: options.autopilot,
          };
          const task = await ctx.api.ok(ctx.api.rest.POST('/api/tasks', { body }));
          if (ctx.json) ctx.out.json(task);
          else ctx.out.line(`created task ${paint(ctx.out, 'bold', task.id)} (${task.title})`);
        },
      ),
    );
  addTaskActions(noun);
  addTimelineCommands(program, noun);
}

export function addResourceCommands(program: Command): void {
  workspaces(program);
  repositories(program);
  tasks(program);
  sessions(program);
  profiles(program);
}
