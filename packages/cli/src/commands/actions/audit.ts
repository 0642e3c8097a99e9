import type { Command } from 'commander';
import type { components } from '@kandev/rest-client';
import { run } from '../../context';
import { outputOption, positive, printTable } from '../../conventions/lists';
import { shortTime } from '../noun-helpers';

// `kandev audit`: who changed what, newest first (GET /api/audit; an admin token of every workspace).

type Entry = components['schemas']['AuditEntry'];

interface AuditOptions {
  actor?: string;
  agents?: boolean;
  tokens?: boolean;
  task?: string;
  limit?: number;
}

/** "token ci (id)" or "session <id>". */
export function actorOf(entry: Entry): string {
  return entry.actor.kind === 'token' ? `${entry.actor.name} (${entry.actor.id})` : `session ${entry.actor.id}`;
}

export function addAuditCommand(program: Command): void {
  outputOption(
    program
      .command('audit')
      .option('--actor <id>', 'only changes made by this token id or session id')
      .option('--tokens', 'only changes made over REST by tokens')
      .option('--agents', 'only changes agents made through their tools')
      .option('--task <id>', 'only changes to this task')
      .option('--limit <n>', 'show the newest n entries (default 50)', positive)
      .description('who changed what, newest first (admin)'),
  ).action(
    run(async (ctx, options: AuditOptions) => {
      const kind: Entry['actor']['kind'] | undefined =
        options.tokens === true ? 'token' : options.agents === true ? 'session' : undefined;
      const query = {
        ...(options.actor === undefined ? {} : { actor_id: options.actor }),
        ...(kind === undefined ? {} : { actor_kind: kind }),
        ...(options.task === undefined ? {} : { task_id: options.task }),
      };
      const entries = await ctx.api.upTo('entries', options.limit ?? 50, (page) =>
        ctx.api.rest.GET('/api/audit', { params: { query: { ...query, ...page } } }),
      );
      if (ctx.json) return ctx.out.json(entries);
      printTable(ctx, entries, [
        { header: 'AT', cell: (e) => shortTime(e.at) },
        { header: 'ACTOR', cell: (e) => actorOf(e) },
        { header: 'EVENT', cell: (e) => e.type },
        { header: 'TASK', cell: (e) => e.task_id ?? '-' },
        { header: 'ID', cell: (e) => e.id, wide: true },
      ]);
    }),
  );
}
