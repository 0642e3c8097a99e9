import type { Command } from 'commander';
import { run } from '../../context';
import { outputOption, positive } from '../../conventions/lists';
import { paint } from '../../output';
import { resolveId } from '../../conventions/resolve-id';
import type { Message } from '../../schemas';
import { entryLines } from '../follow-entries';

// `kandev messages <task>` (alias `logs`): a task's conversation as it is stored, oldest first, every
// page; each entry with its date, time and (shortened) session. `follow` is the live view.

interface MessagesOptions {
  session?: string;
  tail?: number;
}

export function addMessagesCommand(program: Command): void {
  outputOption(
    program
      .command('messages')
      .alias('logs')
      .argument('<task>', 'the task id (or a unique prefix)')
      .option('-s, --session <id>', "only this session's entries")
      .option('-n, --tail <n>', 'only the last n entries', positive)
      .description("print a task's conversation: prompts, agent text, tool calls, plans, notices")
      .action(
        run(async (ctx, given: string, options: MessagesOptions) => {
          const task = await resolveId(ctx, 'task', given);
          const session = options.session === undefined ? undefined : await resolveId(ctx, 'session', options.session);
          let items = await ctx.api.all('messages', (query) =>
            ctx.api.rest.GET('/api/tasks/{id}/messages', { params: { path: { id: task }, query } }),
          );
          if (session !== undefined) items = items.filter((message) => message.session_id === session);
          if (options.tail !== undefined) items = items.slice(-options.tail);
          if (ctx.json) return ctx.out.json(items);
          if (items.length === 0) ctx.out.line(paint(ctx.out, 'dim', '(no entries)'));
          for (const message of items) printEntry(ctx.out, message);
        }),
      ),
  );
}

function printEntry(out: Parameters<typeof entryLines>[0] & { line(text?: string): void }, message: Message): void {
  const at = paint(out, 'dim', message.created_at.replace('T', ' ').replace(/\.\d+Z$/, 'Z'));
  const session = message.session_id === null ? '' : paint(out, 'dim', ` [${message.session_id.slice(0, 8)}]`);
  const [first = '', ...rest] = entryLines(out, message, false);
  out.line(`${at}${session} ${first}`);
  for (const line of rest) out.line(line);
}
