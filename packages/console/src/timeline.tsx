import { useEffect, useRef } from 'preact/hooks';
import { type TimelineEntry, timelinePage } from './api';
import { Collapsed } from './conversation-entries';
import type { LiveEvent } from './live';
import { useResource } from './resource';
import { Status, When } from './widgets';

// A task's history as the backend keeps it (GET /api/tasks/:id/timeline): per session, prompts from
// queued to their turn's outcome, tool calls with arguments and results, questions with who answered
// what, state changes with their error, tool revisions. Entries fill in later (delivered, answered,
// finished), so the list is re-read on the task's events that change it, never patched here.

/** Pages read at most (200 entries each): a longer history shows its first 2,000 entries. */
const MAX_PAGES = 10;

async function loadTimeline(taskId: string): Promise<TimelineEntry[]> {
  const entries: TimelineEntry[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const body = await timelinePage(taskId, cursor);
    entries.push(...body.entries);
    if (body.next_cursor === null) break;
    cursor = body.next_cursor;
  }
  return entries;
}

/** Whether `event` changes the timeline: a streamed text run does not (only a tool call entry does). */
export function touchesTimeline(event: LiveEvent): boolean {
  if (event.type === 'message.created' || event.type === 'message.updated') {
    const message = event.data.message as { type?: unknown } | undefined;
    return message?.type === 'tool_call';
  }
  return /^(queue|question|parent_question|session|tools)\.|^stream\.head$|^poll$|^reset$/.test(event.type);
}

/** "850 ms", "12.3 s", "4 min 5 s". */
export function duration(ms: number | null): string | undefined {
  if (ms === null) return undefined;
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** An answer set in a line: the options chosen and texts given. */
export function answerText(answers: { option?: string; text?: string }[] | null): string {
  if (answers === null) return '';
  return answers.map((a) => a.option ?? a.text ?? '?').join(', ');
}

const json = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

function Took(props: { ms: number | null }) {
  const text = duration(props.ms);
  return text === undefined ? null : <span data-testid="duration"> · took {text}</span>;
}

function Body(props: { entry: TimelineEntry }) {
  const { entry } = props;
  switch (entry.kind) {
    case 'prompt':
      return (
        <div>
          <span class="badge">{entry.status === 'dispatched' ? 'delivered' : entry.status}</span>{' '}
          <span class="clip">{entry.text}</span>
          <div class="muted">
            queued by {entry.source}
            {entry.delivered_at !== null && (
              <>
                {' '}
                · delivered <When iso={entry.delivered_at} />
              </>
            )}
            {entry.finished_at !== null && (
              <>
                {' '}
                · ended <When iso={entry.finished_at} />
                {entry.stop_reason !== null && <> ({entry.stop_reason.replaceAll('_', ' ')})</>}
              </>
            )}
            <Took ms={entry.duration_ms} />
          </div>
          {entry.error !== null && <div class="error-text">{entry.error}</div>}
        </div>
      );
    case 'tool_call':
      return (
        <div>
          <strong>{entry.title}</strong> {entry.tool_kind !== null && <span class="badge">{entry.tool_kind}</span>}{' '}
          <span class={entry.status === 'failed' ? 'badge tone-bad' : 'badge'}>{entry.status.replace('_', ' ')}</span>
          <Took ms={entry.duration_ms} />
          {entry.input !== null && entry.input !== undefined && (
            <Collapsed label="Arguments" text={json(entry.input)} />
          )}
          {entry.result_summary !== null && entry.result_summary !== '' && (
            <Collapsed label="Result" text={entry.result_summary} />
          )}
        </div>
      );
    case 'question':
      return (
        <div>
          <span class={entry.state === 'pending' ? 'badge attention' : 'badge'}>{entry.state}</span>{' '}
          {entry.question_kind === 'permission' ? 'Permission request: ' : 'Question: '}
          {entry.questions.map((q) => q.prompt).join(' · ')}
          <Outcome
            answer={entry.answers === null ? null : answerText(entry.answers)}
            by={entry.answered_by}
            at={entry.answered_at}
            closedReason={entry.closed_reason}
          />
          {entry.answer_delivery === 'undeliverable' && (
            <div class="muted" data-testid="undeliverable">
              not delivered: the call had ended and the session has no agent to take it
            </div>
          )}
        </div>
      );
    case 'parent_question':
      return (
        <div>
          <span class={entry.status === 'pending' ? 'badge attention' : 'badge'}>{entry.status}</span> Question to the
          parent task: {entry.questions.map((q) => q.prompt).join(' · ')}
          <Outcome answer={entry.answer} by={null} at={entry.answered_at} closedReason={entry.closed_reason} />
        </div>
      );
    case 'state_change':
      return (
        <div>
          {entry.previous_state === null
            ? 'Session created as'
            : `Session ${entry.previous_state.replaceAll('_', ' ')} →`}{' '}
          <strong>{entry.state.replaceAll('_', ' ')}</strong>
          {entry.error !== null && <div class="error-text">{entry.error}</div>}
        </div>
      );
    case 'tools_revision':
      return (
        <div>
          Tools revision {entry.revision}
          {entry.added.length > 0 && <div>added: {entry.added.join(', ')}</div>}
          {entry.removed.length > 0 && <div>removed: {entry.removed.join(', ')}</div>}
          {entry.added.length === 0 && entry.removed.length === 0 && <span class="muted"> (no change)</span>}
        </div>
      );
  }
}

const LABELS: Record<TimelineEntry['kind'], string> = {
  prompt: 'prompt',
  tool_call: 'tool call',
  question: 'question',
  parent_question: 'parent question',
  state_change: 'state',
  tools_revision: 'tools',
};

/**
 * The task's timeline, oldest first, re-read whenever `tick` changes: the task page counts the task's
 * events that change it (one event stream per page, not one per panel).
 */
export function Timeline(props: { taskId: string; tick: number }) {
  const timeline = useResource(props.taskId, loadTimeline);
  const seen = useRef(props.tick);
  useEffect(() => {
    if (seen.current === props.tick) return;
    seen.current = props.tick;
    timeline.reload();
  }, [props.tick]);
  const entries = timeline.data;
  return (
    <section class="panel" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      <Status error={timeline.error}>{entries === undefined ? 'Loading…' : undefined}</Status>
      {entries?.length === 0 && <p class="muted">Nothing happened yet.</p>}
      <ol class="timeline">
        {entries?.map((entry) => (
          <li key={entry.id} data-kind={entry.kind} data-entry={entry.id}>
            <div class="meta">
              <span class="badge">{LABELS[entry.kind]}</span>
              {entry.session_id !== null && <span>session {entry.session_id.slice(0, 8)}</span>}
              <When iso={entry.at} />
            </div>
            <Body entry={entry} />
          </li>
        ))}
      </ol>
    </section>
  );
}

/** How a question ended: the answer (who gave it and when), or why it closed unanswered. */
function Outcome(props: { answer: string | null; by: string | null; at: string | null; closedReason: string | null }) {
  return (
    <>
      {props.answer !== null && (
        <div data-testid="answer">
          → {props.answer}
          {props.by !== null && <> by {props.by}</>}
          {props.at !== null && (
            <>
              {' '}
              at <When iso={props.at} />
            </>
          )}
        </div>
      )}
      {props.closedReason !== null && <div class="muted">closed: {props.closedReason.replaceAll('_', ' ')}</div>}
    </>
  );
}
