import type { Command } from 'commander';
import type { components } from '@kandev/rest-client';
import { run } from '../context';
import { cut, outputOption, positive, printTable } from '../conventions/lists';
import { resolveId } from '../conventions/resolve-id';
import { shortTime } from './noun-helpers';

// `kandev timeline <task>` (also `kandev tasks timeline`): what happened in a task, session by
// session, as the backend's timeline pages it: prompts, tool calls, questions, state changes and
// tool revisions, with dates.

type Entry = components['schemas']['TimelineEntry'];

function durationOf(ms: number | null): string {
  if (ms === null) return '-';
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/** The entry's status word and one line saying what happened. */
export function summarize(entry: Entry): { status: string; duration: string; what: string } {
  switch (entry.kind) {
    case 'prompt':
      return {
        status: entry.stop_reason === null ? entry.status : `${entry.status} (${entry.stop_reason})`,
        duration: durationOf(entry.duration_ms),
        what: `${entry.source}: ${cut(entry.text, 60)}${entry.error === null ? '' : ` — ${cut(entry.error, 60)}`}`,
      };
    case 'tool_call':
      return {
        status: entry.status,
        duration: durationOf(entry.duration_ms),
        what: `${entry.title}${entry.result_summary === null ? '' : ` → ${cut(entry.result_summary, 60)}`}`,
      };
    case 'question': {
      const answer = (entry.answers ?? []).map((a) => a.option ?? a.text ?? '').join('; ');
      const by = entry.answered_by === null ? '' : ` (${entry.answered_by}: ${cut(answer, 40)})`;
      return {
        status: entry.closed_reason === null ? entry.state : `${entry.state} (${entry.closed_reason})`,
        duration: '-',
        what: `${entry.question_kind}: ${cut(entry.questions[0]?.prompt, 50)}${by}`,
      };
    }
    case 'parent_question':
      return {
        status: entry.status,
        duration: '-',
        what: `to ${entry.parent_task_id}: ${cut(entry.questions[0]?.prompt, 50)}${entry.answer === null ? '' : ` → ${cut(entry.answer, 40)}`}`,
      };
    case 'state_change':
      return {
        status: entry.state,
        duration: '-',
        what: `${entry.previous_state ?? '-'} → ${entry.state}${entry.error === null ? '' : `: ${cut(entry.error, 60)}`}`,
      };
    case 'tools_revision': {
      const changes = [...entry.added.map((n) => `+${n}`), ...entry.removed.map((n) => `-${n}`)];
      return { status: `r${entry.revision}`, duration: '-', what: changes.join(' ') || '(no change)' };
    }
  }
}

function timelineCommand(command: Command): void {
  outputOption(
    command
      .argument('<task>', 'the task id (or a unique prefix)')
      .option('--limit <n>', 'show the first n entries (reads only the pages it needs)', positive)
      .description("a task's timeline: prompts, tool calls, questions, state changes and tool revisions"),
  ).action(
    run(async (ctx, given: string, options: { limit?: number }) => {
      const id = await resolveId(ctx, 'task', given);
      const entries = await ctx.api.upTo('entries', options.limit, (page) =>
        ctx.api.rest.GET('/api/tasks/{id}/timeline', { params: { path: { id }, query: page } }),
      );
      const described = entries.map((entry) => ({ entry, ...summarize(entry) }));
      if (ctx.json) return ctx.out.json(entries);
      printTable(ctx, described, [
        { header: 'AT', cell: (d) => shortTime(d.entry.at) },
        { header: 'SESSION', cell: (d) => d.entry.session_id ?? '-' },
        { header: 'KIND', cell: (d) => d.entry.kind },
        { header: 'STATUS', cell: (d) => d.status },
        { header: 'DURATION', cell: (d) => d.duration },
        { header: 'ID', cell: (d) => d.entry.id, wide: true },
        { header: 'WHAT', cell: (d) => d.what },
      ]);
    }),
  );
}

export function addTimelineCommands(program: Command, tasks: Command): void {
  timelineCommand(program.command('timeline'));
  timelineCommand(tasks.command('timeline'));
}
