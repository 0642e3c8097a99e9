import { z } from 'zod';
import { firstLine, type Out, paint } from '../output';
import type { Message } from '../schemas';

// A conversation entry (`message.*` events) as terminal lines: who said what, tool calls with their
// input, first lines of output and changed files (bounded), plans, notices.

/** At most this many lines of a tool call's output, and of its changed files. */
const MAX_OUTPUT_LINES = 3;
const MAX_DIFF_PATHS = 5;

const ToolCallMetadataSchema = z.looseObject({
  status: z.string().optional(),
  kind: z.string().nullable().optional(),
  input: z.unknown().optional(),
  output: z.string().nullable().optional(),
  diffs: z
    .array(z.looseObject({ path: z.string(), old_text: z.string().nullable().optional() }))
    .optional()
    .catch(undefined),
});

const NoticeMetadataSchema = z.looseObject({ event: z.literal('agent_notice'), level: z.string() });

function authorStyle(author: string): 'cyan' | 'green' | 'magenta' {
  if (author === 'agent') return 'cyan';
  if (author === 'operator') return 'green';
  return 'magenta';
}

/** `agent:` (coloured by who wrote it), the head of a message line. */
export function authorHead(out: Pick<Out, 'colour'>, author: string): string {
  return paint(out, authorStyle(author), `${author}:`);
}

/** The agent's input in one short line: a string as is, anything else as compact JSON. */
function inputSummary(input: unknown): string {
  if (input === null || input === undefined) return '';
  return firstLine(typeof input === 'string' ? input : JSON.stringify(input), 60);
}

function toolCallLines(out: Pick<Out, 'colour'>, message: Message): string[] {
  const parsed = ToolCallMetadataSchema.safeParse(message.metadata);
  const meta = parsed.success ? parsed.data : {};
  const kind = typeof meta.kind === 'string' && meta.kind !== '' ? ` [${meta.kind}]` : '';
  const status = meta.status === undefined ? '' : ` (${meta.status})`;
  const input = inputSummary(meta.input);
  const head = paint(out, 'magenta', `tool ${message.content}${kind}${status}`);
  const lines = [input === '' ? head : `${head} ${paint(out, 'dim', input)}`];
  // Output and file changes once the call is done: what it produced, bounded.
  if (meta.status !== 'completed' && meta.status !== 'failed') return lines;
  const output = (meta.output ?? '').split('\n').filter((line) => line.trim() !== '');
  lines.push(...output.slice(0, MAX_OUTPUT_LINES).map((line) => `  ${paint(out, 'dim', `│ ${firstLine(line, 100)}`)}`));
  if (output.length > MAX_OUTPUT_LINES)
    lines.push(`  ${paint(out, 'dim', `│ … ${output.length - MAX_OUTPUT_LINES} more lines`)}`);
  const diffs = meta.diffs ?? [];
  for (const diff of diffs.slice(0, MAX_DIFF_PATHS)) {
    lines.push(
      diff.old_text === null
        ? `  ${paint(out, 'green', `+ ${diff.path}`)}`
        : `  ${paint(out, 'yellow', `~ ${diff.path}`)}`,
    );
  }
  if (diffs.length > MAX_DIFF_PATHS)
    lines.push(`  ${paint(out, 'dim', `… ${diffs.length - MAX_DIFF_PATHS} more files`)}`);
  return lines;
}

/** One entry as lines (the first one without the time, which the caller puts in front). */
export function entryLines(out: Pick<Out, 'colour'>, message: Message, updated: boolean): string[] {
  // Any other type (and one a newer backend adds) prints as its name and content.
  const type: string = message.type;
  switch (type) {
    case 'message': {
      const edited = updated ? paint(out, 'dim', ' (edited)') : '';
      return `${authorHead(out, message.author)} ${message.content}${edited}`.split('\n');
    }
    case 'tool_call':
      return toolCallLines(out, message);
    case 'plan': {
      const head = paint(out, 'blue', updated ? 'plan updated:' : 'plan:');
      return [head, ...message.content.split('\n').map((line) => `  ${line}`)];
    }
    case 'session_event': {
      const notice = NoticeMetadataSchema.safeParse(message.metadata);
      const level = notice.success ? ` (${notice.data.level})` : '';
      const head = `session event${level}:`;
      const styled =
        notice.success && notice.data.level === 'warning' ? paint(out, 'yellow', head) : paint(out, 'dim', head);
      return `${styled} ${message.content}`.split('\n');
    }
    default:
      return `${paint(out, 'dim', `${message.type.replace(/_/g, ' ')}:`)} ${message.content}`.split('\n');
  }
}
