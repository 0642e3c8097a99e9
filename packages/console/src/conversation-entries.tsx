import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Message } from './api';

// How the entries an agent streams read: a plan as a checklist, a tool call with its kind, input,
// output and file changes (each collapsed and cut, and rendered only once opened, so one huge output
// cannot swamp the page while it streams).

/** Longest text shown for one input, output or side of a diff. */
const MAX_SHOWN = 4_000;

const cut = (text: string): string => (text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}\n… (cut)` : text);

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

interface PlanEntry {
  content: string;
  status: string;
}

function planEntries(metadata: Record<string, unknown>): PlanEntry[] {
  const entries = Array.isArray(metadata.entries) ? (metadata.entries as unknown[]) : [];
  return entries.flatMap((e) => {
    const entry = (e ?? {}) as Record<string, unknown>;
    const content = str(entry.content);
    return content === undefined ? [] : [{ content, status: str(entry.status) ?? 'pending' }];
  });
}

const MARKS: Record<string, string> = { completed: '☑', in_progress: '◐', pending: '☐' };

export function Plan(props: { message: Message }) {
  const entries = planEntries(props.message.metadata);
  if (entries.length === 0) return <div class="content">{props.message.content}</div>;
  return (
    <ul class="plan" aria-label="Plan">
      {entries.map((entry, i) => (
        <li key={i} data-status={entry.status}>
          <span class="mark" aria-hidden="true">
            {MARKS[entry.status] ?? '☐'}
          </span>{' '}
          {entry.content} <span class="muted">({entry.status.replace('_', ' ')})</span>
        </li>
      ))}
    </ul>
  );
}

interface Diff {
  path: string;
  oldText: string | null;
  newText: string;
  truncated: boolean;
}

function diffsOf(metadata: Record<string, unknown>): Diff[] {
  const diffs = Array.isArray(metadata.diffs) ? (metadata.diffs as unknown[]) : [];
  return diffs.flatMap((d) => {
    const diff = (d ?? {}) as Record<string, unknown>;
    const path = str(diff.path);
    if (path === undefined) return [];
    return [
      {
        path,
        oldText: str(diff.old_text) ?? null,
        newText: str(diff.new_text) ?? '',
        truncated: diff.truncated === true,
      },
    ];
  });
}

/** A `<details>` whose body exists only while it is open. */
function Lazy(props: { summary: ComponentChildren; class?: string; children: () => ComponentChildren }) {
  const [open, setOpen] = useState(false);
  return (
    <details class={props.class} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{props.summary}</summary>
      {open && props.children()}
    </details>
  );
}

export function Collapsed(props: { label: string; text: string }) {
  // Focusable: a long line scrolls sideways, and a keyboard must be able to scroll it too.
  return (
    <Lazy summary={props.label}>
      {() => (
        <pre tabIndex={0} aria-label={props.label}>
          {cut(props.text)}
        </pre>
      )}
    </Lazy>
  );
}

export function ToolCall(props: { message: Message }) {
  const { metadata, content } = props.message;
  const kind = str(metadata.kind);
  const status = str(metadata.status);
  const input = metadata.input === null || metadata.input === undefined ? undefined : metadata.input;
  const output = str(metadata.output);
  const diffs = diffsOf(metadata);
  return (
    <div class="tool-call">
      <div>
        <strong>{content}</strong> {kind !== undefined && <span class="badge">{kind}</span>}
        {status !== undefined && (
          <span class={status === 'failed' ? 'badge attention' : 'badge'} data-testid="tool-status">
            {status.replace('_', ' ')}
          </span>
        )}
      </div>
      {input !== undefined && (
        <Collapsed label="Input" text={typeof input === 'string' ? input : JSON.stringify(input, null, 2)} />
      )}
      {output !== undefined && output !== '' && <Collapsed label="Output" text={output} />}
      {diffs.map((diff) => (
        <Lazy
          key={diff.path}
          class="diff"
          summary={
            <>
              <code>{diff.path}</code> {diff.oldText === null ? '(new file)' : '(changed)'}
              {diff.truncated && <span class="muted"> cut</span>}
            </>
          }
        >
          {() => (
            <>
              {diff.oldText !== null && (
                <pre class="old" tabIndex={0} aria-label={`${diff.path} before`}>
                  {cut(diff.oldText)}
                </pre>
              )}
              <pre class="new" tabIndex={0} aria-label={`${diff.path} after`}>
                {cut(diff.newText)}
              </pre>
            </>
          )}
        </Lazy>
      ))}
    </div>
  );
}

/** A notice at level warning (no MCP tools, say) stands out; other session events read as text. */
export function isWarning(message: Message): boolean {
  return message.type === 'session_event' && message.metadata.level === 'warning';
}
