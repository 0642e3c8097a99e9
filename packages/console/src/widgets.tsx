import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Need } from './role';
import { describeError } from './errors';
import { useDisconnected } from './live';

/** Shown while a live stream is down: what the page shows may be stale until it reconnects. */
export function ConnectionBanner() {
  const down = useDisconnected();
  return (
    <div role="status" aria-live="polite" class={down ? 'banner' : 'banner-off'}>
      {down && 'Disconnected from the backend — reconnecting… (what you see may be out of date)'}
    </div>
  );
}

/** Session and task states by colour: green live, amber waiting, red failed, grey finished. */
const TONES: Record<string, string> = {
  running: 'ok',
  starting: 'busy',
  created: 'busy',
  waiting_for_input: 'wait',
  failed: 'bad',
  cancelled: 'off',
  completed: 'off',
};

export function StateBadge(props: { state: string; testId?: string }) {
  return (
    <span
      class={`badge state tone-${TONES[props.state] ?? 'none'}`}
      data-state={props.state}
      data-testid={props.testId}
    >
      {props.state.replaceAll('_', ' ')}
    </span>
  );
}

/**
 * A button that does something, showing what came of it: busy while it runs, then the result or the
 * failure in the operator's words. With `confirm` it asks first (a second button), for what cannot be undone.
 */
export function ActionButton(props: {
  label: string;
  confirm?: string;
  done?: string;
  class?: string;
  disabled?: boolean;
  /** The right it needs (default operate): hidden for a role without it (role.ts). */
  needs?: Need;
  run: () => Promise<unknown>;
}) {
  const [state, setState] = useState<'idle' | 'asking' | 'busy'>('idle');
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>();
  const go = () => {
    setState('busy');
    setResult(undefined);
    props.run().then(
      () => {
        setState('idle');
        if (props.done !== undefined) setResult({ ok: true, text: props.done });
      },
      (failure: unknown) => {
        setState('idle');
        setResult({ ok: false, text: describeError(failure) });
      },
    );
  };
  return (
    <span class="action" data-needs={props.needs ?? 'operate'}>
      {state === 'asking' ? (
        <span role="group" aria-label={props.confirm}>
          <span class="confirm-text">{props.confirm}</span>{' '}
          <button type="button" class="danger" onClick={go}>
            Yes, {props.label.toLowerCase()}
          </button>{' '}
          <button type="button" class="secondary" onClick={() => setState('idle')}>
            Keep it
          </button>
        </span>
      ) : (
        <button
          type="button"
          class={props.class ?? 'secondary'}
          disabled={props.disabled === true || state === 'busy'}
          onClick={() => (props.confirm === undefined ? go() : setState('asking'))}
        >
          {props.label}
        </button>
      )}
      {result !== undefined && (
        <span class={result.ok ? 'ok-text' : 'error'} role={result.ok ? 'status' : 'alert'}>
          {result.text}
        </span>
      )}
    </span>
  );
}

export function NotFound(props: { what: string }) {
  return (
    <section class="panel" aria-labelledby="not-found">
      <h1 id="not-found">Not found</h1>
      <p>{props.what}</p>
      <p>
        <a href="#/">Back to the board</a>
      </p>
    </section>
  );
}

/** A page's loading line, or its last read's failure (with the data from before, if any, kept). */
export function Status(props: { error: string | undefined; children?: ComponentChildren }) {
  if (props.error !== undefined) {
    return (
      <p class="error" role="alert">
        {props.error}
      </p>
    );
  }
  return props.children === undefined ? null : <p class="muted">{props.children}</p>;
}

const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A timestamp with its date (a task runs for days), machine-readable in `datetime`. */
export function When(props: { iso: string | null | undefined }) {
  if (props.iso == null) return <span class="muted">–</span>;
  return <time dateTime={props.iso}>{DATE.format(new Date(props.iso))}</time>;
}

/** Session states that are over: no turn, no tools served, no prompts taken. */
export const FINISHED = new Set(['completed', 'cancelled', 'failed']);
