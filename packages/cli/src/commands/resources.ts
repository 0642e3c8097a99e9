import { type Command, Option } from 'commander';
import { z } from 'zod';
import { type Ctx, run } from '../context';
import { usage } from '../errors';
import { fields, paint, table } from '../output';
import {
  type Profile,
  ProfileSchema,
  type Repository,
  RepositorySchema,
  SessionSchema,
  type SessionSummary,
  SessionSummarySchema,
  type Task,
  TaskSchema,
  type Workspace,
  WorkspaceSchema,
} from '../schemas';
import { launch, type LaunchOptions, printLaunched } from './launch';

// `kandev <noun> ls|show|create` for workspaces, repos, tasks, sessions and profiles (singular too).

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function shortTime(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

async function allWorkspaces(ctx: Ctx): Promise<Workspace[]> {
  return ctx.api.all('/api/workspaces', 'workspaces', WorkspaceSchema);
}

/** The workspace named by --workspace, or the only one there is. */
async function workspaceOf(ctx: Ctx, given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  const workspaces = await allWorkspaces(ctx);
  if (workspaces.length === 1 && workspaces[0] !== undefined) return workspaces[0].id;
  throw usage(
    workspaces.length === 0
      ? 'no workspace yet: create one with `kandev workspaces create <name>`'
      : `${workspaces.length} workspaces: say which with --workspace <id>`,
  );
}

/** Every task of one workspace, or of every workspace. */
export async function listTasks(ctx: Ctx, workspace: string | undefined, archived = false): Promise<Task[]> {
  const workspaceIds = workspace !== undefined ? [workspace] : (await allWorkspaces(ctx)).map((w) => w.id);
  const tasks: Task[] = [];
  for (const workspaceId of workspaceIds) {
    const query = { workspace_id: workspaceId, include_archived: archived ? 'true' : undefined };
    tasks.push(...(await ctx.api.all('/api/tasks', 'tasks', TaskSchema, query)));
  }
  return tasks;
}

function printList<T>(ctx: Ctx, items: T[], header: string[], row: (item: T) => string[]): void {
  if (ctx.json) ctx.out.json(items);
  else table(ctx.out, header, items.map(row));
}

function printOne(ctx: Ctx, item: Record<string, unknown>): void {
  if (ctx.json) ctx.out.json(item);
  else fields(ctx.out, Object.entries(item));
}

function addNoun(program: Command, names: [string, string], description: string): Command {
  return program.command(names[0]).alias(names[1]).description(description);
}

const idArg = (what: string) => `<${what}>`;

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
        printOne(ctx, await ctx.api.get(WorkspaceSchema, `/api/workspaces/${encodeURIComponent(id)}`)),
      ),
    );
  noun
    .command('create')
    .argument('<name>')
    .description('create a workspace')
    .action(
      run(async (ctx, name: string) => {
        const workspace = await ctx.api.post(WorkspaceSchema, '/api/workspaces', { name });
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
        const repos = await ctx.api.all('/api/repositories', 'repositories', RepositorySchema, {
          workspace_id: options.workspace,
        });
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
        printOne(ctx, await ctx.api.get(RepositorySchema, `/api/repositories/${encodeURIComponent(id)}`)),
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
          const repo = await ctx.api.post(RepositorySchema, '/api/repositories', body);
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
        printOne(ctx, await ctx.api.get(TaskSchema, `/api/tasks/${encodeURIComponent(id)}`)),
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
          const task = await ctx.api.post(TaskSchema, '/api/tasks', body);
          if (ctx.json) ctx.out.json(task);
          else ctx.out.line(`created task ${paint(ctx.out, 'bold', task.id)} (${task.title})`);
        },
      ),
    );
}

const SESSION_STATES = ['created', 'starting', 'running', 'waiting_for_input', 'completed', 'failed', 'cancelled'];

function sessions(program: Command): void {
  const noun = addNoun(program, ['sessions', 'session'], 'list, show and launch sessions');
  noun
    .command('ls')
    .option('-t, --task <id>', 'only this task')
    .addOption(new Option('-s, --state <state>', 'only this state').choices(SESSION_STATES))
    .option('-e, --executor <name>', 'only this executor')
    .description('list sessions, oldest first')
    .action(
      run(async (ctx, options: { task?: string; state?: string; executor?: string }) => {
        const query = { task_id: options.task, state: options.state, executor: options.executor };
        const items = await ctx.api.all('/api/sessions', 'sessions', SessionSummarySchema, query);
        printList(ctx, items, ['ID', 'TASK', 'STATE', 'EXECUTOR', 'REVISION'], (s: SessionSummary) => [
          s.id,
          s.task_id,
          s.state,
          s.executor,
          s.applied_revision === s.revision ? String(s.revision) : `${s.revision} (applied ${s.applied_revision})`,
        ]);
      }),
    );
  noun
    .command('show')
    .argument(idArg('session'))
    .description('show one session, with what agentctl reports about it now')
    .action(
      run(async (ctx, id: string) =>
        printOne(ctx, await ctx.api.get(SessionSchema, `/api/sessions/${encodeURIComponent(id)}`)),
      ),
    );
  noun
    .command('create')
    .argument(idArg('task'))
    .option('-e, --executor <name>', 'local, docker, remote or a named executor profile')
    .description('launch a session for a task (the same as `kandev launch`)')
    .action(
      run(async (ctx, task: string, options: LaunchOptions) => printLaunched(ctx, await launch(ctx, task, options))),
    );
}

function profiles(program: Command): void {
  const noun = addNoun(program, ['profiles', 'profile'], 'list, show and create agent profiles');
  const list = z.object({ agent_profiles: z.array(ProfileSchema) });
  noun
    .command('ls')
    .description('list agent profiles')
    .action(
      run(async (ctx) => {
        const { agent_profiles: items } = await ctx.api.get(list, '/api/agent-profiles');
        printList(ctx, items, ['ID', 'NAME', 'MCP', 'COMMAND'], (p: Profile) => [
          p.id,
          p.name,
          p.supports_mcp ? 'yes' : 'no',
          [p.command, ...(p.args ?? [])].join(' '),
        ]);
      }),
    );
  noun
    .command('show')
    .argument(idArg('profile'))
    .description('show one agent profile (env names only, never values)')
    .action(
      run(async (ctx, id: string) =>
        printOne(ctx, await ctx.api.get(ProfileSchema, `/api/agent-profiles/${encodeURIComponent(id)}`)),
      ),
    );
  noun
    .command('create')
    .argument('<name>')
    .requiredOption('-c, --command <command>', 'the agent executable')
    .option('-a, --arg <arg>', 'one argument (repeatable, in order)', collect)
    .option('--env <KEY=VALUE>', 'one environment variable (repeatable); stored sealed', collect)
    .option('--no-mcp', 'the agent cannot take MCP servers (supports_mcp: false)')
    .description('create an agent profile')
    .action(
      run(async (ctx, name: string, options: { command: string; arg?: string[]; env?: string[]; mcp: boolean }) => {
        const env: Record<string, string> = {};
        for (const pair of options.env ?? []) {
          const at = pair.indexOf('=');
          if (at <= 0) throw usage(`--env wants KEY=VALUE, got "${pair}"`);
          env[pair.slice(0, at)] = pair.slice(at + 1);
        }
        const body = { name, command: options.command, args: options.arg ?? [], env, supports_mcp: options.mcp };
        const profile = await ctx.api.post(ProfileSchema, '/api/agent-profiles', body);
        if (ctx.json) ctx.out.json(profile);
        else ctx.out.line(`created agent profile ${paint(ctx.out, 'bold', profile.id)} (${profile.name})`);
      }),
    );
}

export function addResourceCommands(program: Command): void {
  workspaces(program);
  repositories(program);
  tasks(program);
  sessions(program);
  profiles(program);
}
