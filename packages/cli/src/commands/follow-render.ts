import { z } from 'zod';
import { type Out, paint } from '../output';
import { MessageSchema, QuestionItemSchema } from '../schemas';
import { entryLines } from './follow-entries';

// One live event as terminal lines (the event-stream contract: docs/rest-api.md, GET /api/events).

export const StreamEventSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  at: z.string(),
  task_id: z.string().nullable(),
  session_id: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type StreamEvent = z.infer<typeof StreamEventSchema>;

const StateChangedSchema = z.looseObject({
  state: z.string(),
  previous_state: z.string().nullable().optional(),
  error: z.string().optional(),
});
const ToolsChangedSchema = z.looseObject({
  revision: z.number(),
  providers: z.array(z.string()),
  added: z.array(z.string()),
  removed: z.array(z.string()),
});
const QuestionDataSchema = z.looseObject({
  question: z.looseObject({
    id: z.string(),
    questions: z.array(QuestionItemSchema).optional(),
    answers: z
      .array(z.looseObject({ option: z.string().optional(), text: z.string().optional() }))
      .nullable()
      .optional(),
    answer: z.looseObject({ text: z.string() }).nullable().optional(),
  }),
});
const TaskDataSchema = z.looseObject({ task: z.looseObject({ id: z.string(), title: z.string(), state: z.string() }) });

export function time(out: Pick<Out, 'colour'>, at: string): string {
  const clock = /T(\d\d:\d\d:\d\d)/.exec(at)?.[1] ?? at;
  return paint(out, 'dim', clock);
}

function renderMessage(out: Out, data: Record<string, unknown>, updated: boolean): string {
  const parsed = z.object({ message: MessageSchema }).safeParse(data);
  if (!parsed.success) return 'message (unreadable)';
  return entryLines(out, parsed.data.message, updated).join('\n');
}

function renderQuestion(out: Out, type: string, data: Record<string, unknown>): string {
  const parsed = QuestionDataSchema.safeParse(data);
  const kind = type.startsWith('parent_') ? 'parent question' : 'question';
  const verb = type.split('.')[1] ?? type;
  if (!parsed.success) return `${kind} ${verb}`;
  const question = parsed.data.question;
  const head = paint(out, 'yellow', `${kind} ${question.id} ${verb}`);
  if (verb === 'created') {
    const items = (question.questions ?? []).map((item) => {
      const options = item.options === undefined ? '' : ` [${item.options.map((o) => o.label).join(' | ')}]`;
      return `${item.prompt}${options}`;
    });
    return `${head}: ${items.join('; ')}`;
  }
  if (verb === 'answered') {
    const chosen =
      (question.answers ?? []).map((a) => a.option ?? a.text ?? '').join('; ') || question.answer?.text || '';
    return `${head}: ${chosen}`;
  }
  return head;
}

function renderBody(out: Out, event: StreamEvent): string {
  const { type, data } = event;
  // message.updated: an agent tool call's progress, a plan's update, an entry edited in place (streamed
  // text is the follower's: follow-printer.ts prints only what is new).
  if (type === 'message.created' || type === 'message.updated') {
    return renderMessage(out, data, type === 'message.updated');
  }
  if (type === 'session.state_changed') {
    const parsed = StateChangedSchema.safeParse(data);
    const from = parsed.success && parsed.data.previous_state ? `${parsed.data.previous_state} → ` : '';
    const why = parsed.success && parsed.data.error !== undefined ? ` (${parsed.data.error})` : '';
    const change = parsed.success ? `${from}${parsed.data.state}${why}` : 'changed';
    // A short id: enough to tell a task's sessions apart on one screen (--json has the whole one).
    return paint(out, 'blue', `session ${(event.session_id ?? '').slice(0, 8)}: ${change}`);
  }
  if (type === 'tools.changed') {
    const parsed = ToolsChangedSchema.safeParse(data);
    if (!parsed.success) return 'tools changed';
    const { revision, providers, added, removed } = parsed.data;
    const diff = [
      ...added.map((name) => paint(out, 'green', `+${name}`)),
      ...removed.map((name) => paint(out, 'red', `−${name}`)),
    ];
    return `tools revision ${revision} (providers ${providers.join(', ') || 'none'}): ${diff.join(' ') || 'no change'}`;
  }
  if (type.startsWith('question.') || type.startsWith('parent_question.')) return renderQuestion(out, type, data);
  if (type.startsWith('task.')) {
    const parsed = TaskDataSchema.safeParse(data);
    const verb = type.split('.')[1] ?? '';
    return parsed.success ? `task ${parsed.data.task.title} ${verb} (${parsed.data.task.state})` : `task ${verb}`;
  }
  if (type === 'queue.changed') return paint(out, 'dim', `queue depth ${JSON.stringify(data.depth ?? '?')}`);
  if (type === 'reset')
    return paint(out, 'yellow', `older events are gone (oldest kept: ${JSON.stringify(data.oldest_id ?? '?')})`);
  return `${type} ${JSON.stringify(data)}`;
}

export function renderEvent(out: Out, event: StreamEvent): string[] {
  return `${time(out, event.at)} ${renderBody(out, event)}`.split('\n');
}
