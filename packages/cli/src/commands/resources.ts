import type { Command } from 'commander';
import { run } from '../context';
import { paint } from '../output';
import type { Repository } from '../schemas';
import {
  addNoun,
  allWorkspaces,
  collect,
  idArg,
  listTasks,
  printList,
  printOne,
  shortTime,
  workspaceOf,
} from './noun-helpers';
import { profiles } from './profiles';
import { sessions } from './runtime-nouns';

// `kandev <noun> ls|show|create` for workspaces, repos, tasks, sessions and profiles (singular too).

function workspaces(program: Command): void {
  const noun = addNoun(program, ['workspaces', 'workspace'], 'list, show and create workspaces');
  noun
    .command('ls')
    .description('list workspaces, oldest first')
    .action(
      run(async (ctx) =>
        printList(ctx, await allWorkspaces(ctx), ['ID', 'NAME', 'CREATED'], (w) => [
          w.id,
          w.name,
          shortTime(w.created_at),
        ]),
      ),
    );
  noun
    .command('show')
    .argument(idArg('workspace'))
    .description('show one workspace')
    .action(
      run(async (ctx, id: string) =>
        printOne(ctx, await ctx.api.ok(ctx.api.rest.GET('/api/workspaces/{id}', { params: { path: { id } } }))),
      ),
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
  noun
    .command('ls')
    .option('-w, --workspace <id>', 'only this workspace')
    .description('list repositories, oldest first')
    .action(
      run(async (ctx, options: { workspace?: string }) => {
        const repos = await ctx.api.all('repositories', (page) =>
          ctx.api.rest.GET('/api/repositories', { params: { query: { workspace_id: options.workspace, ...page } } }),
        );
        printList(ctx, repos, ['ID', 'NAME', 'PROVIDER', 'SOURCE'], (r: Repository) => [
          r.id,
          r.name,
          r.provider ?? '-',
          r.remote_url ?? r.local_path ?? '-',
        ]);
      }),
    );
  noun
    .command('show')
    .argument(idArg('repository'))
    .description('show one repository')
    .action(
      run(async (ctx, id: string) =>
        printOne(ctx, await ctx.api.ok(ctx.api.rest.GET('/api/repositories/{id}', { params: { path: { id } } }))),
      ),
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
  noun
    .command('ls')
    .option('-w, --workspace <id>', 'only this workspace (default: every workspace)')
    .option('--archived', 'include archived tasks')
    .description('list tasks, oldest first')
    .action(
      run(async (ctx, options: { workspace?: string; archived?: boolean }) =>
        printList(
          ctx,
          await listTasks(ctx, options.workspace, options.archived),
          ['ID', 'STATE', 'PENDING', 'TITLE'],
          (t) => [
            t.id,
            t.archived_at === null || t.archived_at === undefined ? t.state : `${t.state} (archived)`,
            t.pending_action ?? '-',
            t.title,
          ],
        ),
      ),
    );
  noun
    .command('show')
    .argument(idArg('task'))
    .description('show one task')
    .action(
      run(async (ctx, id: string) =>
        printOne(ctx, await ctx.api.ok(ctx.api.rest.GET('/api/tasks/{id}', { params: { path: { id } } }))),
      ),
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
            repository_ids: options.repo,
            agent_profile_id: options.profile,
            parent_id: options.parent,
            autopilot: options.autopilot,
          };
          const task = await ctx.api.ok(ctx.api.rest.POST('/api/tasks', { body }));
          if (ctx.json) ctx.out.json(task);
          else ctx.out.line(`created task ${paint(ctx.out, 'bold', task.id)} (${task.title})`);
        },
      ),
    );
}

export function addResourceCommands(program: Command): void {
  workspaces(program);
  repositories(program);
  tasks(program);
  sessions(program);
  profiles(program);
}
