import type { Command } from 'commander';
import type { Ctx } from '../context';
import { CliError } from '../errors';
import { readEvents } from '../sse';
import { run } from '../context';
import { resolveSessionOrTask } from '../conventions/resolve-id';
import { FollowPrinter } from './follow-printer';
import { type StreamEvent, StreamEventSchema } from './follow-render';

// `kandev follow <task|session>`: GET /api/events filtered to one task or session, rendered as it
// arrives. A dropped stream is resumed with Last-Event-ID (capped backoff); 4xx answers end it.

interface Target {
  query: { task_id?: string; session_id?: string };
  describe: string;
}

/** The session, else the task, with exactly this id; undefined when neither exists. */
async function exactTarget(ctx: Ctx, id: string): Promise<Target | undefined> {
  const notFound = (error: unknown) => {
    if (error instanceof CliError && error.kind === 'not_found') return undefined;
    throw error;
  };
  const session = await ctx.api
    .ok(ctx.api.rest.GET('/api/sessions/{id}', { params: { path: { id } } }))
    .catch(notFound);
  if (session !== undefined) {
    return { query: { session_id: session.id }, describe: `session ${session.id} (task ${session.task_id})` };
  }
  const task = await ctx.api.ok(ctx.api.rest.GET('/api/tasks/{id}', { params: { path: { id } } })).catch(notFound);
  return task === undefined ? undefined : { query: { task_id: task.id }, describe: `task ${task.id} (${task.title})` };
}

/** A session id or a task id (the session is asked first), else a unique prefix of either. */
async function targetOf(ctx: Ctx, given: string): Promise<Target> {
  const exact = await exactTarget(ctx, given);
  if (exact !== undefined) return exact;
  const id = await resolveSessionOrTask(ctx, given);
  const found = id === given ? undefined : await exactTarget(ctx, id);
  if (found === undefined) throw new CliError('not_found', `no session or task ${given}`);
  return found;
}

const MAX_BACKOFF_MS = 5_000;

/** The frame sent once per connect with the log's head as its id (docs/events.md): a cursor, not an event. */
const STREAM_HEAD_EVENT = 'stream.head';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A status line on stderr; an agent's streamed line may still be open on stdout: it is ended first. */
function note(printer: FollowPrinter, text: string): void {
  process.stdout.write(printer.close());
  process.stderr.write(`${text}\n`);
}

interface FollowOptions {
  replay?: boolean;
}

async function follow(ctx: Ctx, id: string, options: FollowOptions): Promise<void> {
  const target = await targetOf(ctx, id);
  const printer = new FollowPrinter(ctx.out);
  let lastId: string | undefined = options.replay === true ? '0' : undefined;
  let connectedOnce = false;
  let backoffMs = 250;
  for (;;) {
    const headers = ctx.api.headers({ accept: 'text/event-stream' });
    if (lastId !== undefined) headers['last-event-id'] = lastId;
    const query = { ...target.query, ...(lastId !== undefined && !connectedOnce ? { after: lastId } : {}) };
    let response: Response;
    try {
      response = await ctx.api.send(ctx.api.url('/api/events', query), { headers });
      if (!response.ok) await ctx.api.check(response);
    } catch (error) {
      // Unreachable at the first connect is an answer; later it is a drop to ride out.
      if (!connectedOnce || !(error instanceof CliError) || error.kind !== 'unavailable') throw error;
      note(printer, `stream lost (${error.message}); retrying in ${backoffMs} ms`);
      await delay(backoffMs);
      backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
      continue;
    }
    if (response.body === null) throw new CliError('unexpected', '/api/events answered without a body');
    note(
      printer,
      connectedOnce ? `resumed after event ${lastId ?? '-'}` : `following ${target.describe}; Ctrl-C to stop`,
    );
    connectedOnce = true;
    backoffMs = 250;
    try {
      for await (const frame of readEvents(response.body)) {
        if (frame.id !== undefined) lastId = frame.id;
        if (frame.event === STREAM_HEAD_EVENT) continue;
        let event: StreamEvent;
        try {
          event = StreamEventSchema.parse(JSON.parse(frame.data));
        } catch {
          note(printer, `skipped an event the CLI cannot read (${frame.event})`);
          continue;
        }
        if (ctx.json) process.stdout.write(`${JSON.stringify(event)}\n`);
        else process.stdout.write(printer.print(event));
      }
      note(printer, 'the backend ended the stream; reconnecting');
    } catch (error) {
      note(printer, `stream dropped (${error instanceof Error ? error.message : String(error)}); reconnecting`);
    }
    await delay(backoffMs);
  }
}

export function addFollowCommand(program: Command): void {
  program
    .command('follow')
    .argument('<id>', 'a task id or a session id (or a unique prefix of either)')
    .option('--replay', 'start with the retained history instead of now')
    .description('stream a task or session live: conversation, state changes, tool-list changes, questions')
    .action(run(async (ctx, id: string, options: FollowOptions) => follow(ctx, id, options)));
}
