import { useEffect, useState } from 'preact/hooks';
import { api, ok, type SessionPage as Page } from './api';
import { describeError } from './errors';
import { useLiveEvents } from './live';
import { useResource } from './resource';
import { taskHref } from './route';
import { StateBadge, Status, When } from './widgets';

const STATES = ['created', 'starting', 'running', 'waiting_for_input', 'completed', 'failed', 'cancelled'] as const;

/** Every session of every task, newest first, filterable by state, each with its last and refresh errors. */
export function SessionsPage(props: { params: URLSearchParams }) {
  const state = props.params.get('state') ?? '';
  const filter = STATES.find((s) => s === state);
  const read = (cursor?: string): Promise<Page> =>
    ok(
      api.GET('/api/sessions', {
        params: {
          query: {
            limit: 50,
            ...(filter === undefined ? {} : { state: filter }),
            ...(cursor === undefined ? {} : { cursor }),
          },
        },
      }),
    );
  const list = useResource(state, () => read());
  useLiveEvents('type=session.state_changed', list.reload);
  const [moreError, setMoreError] = useState<string | undefined>();
  const more = () => {
    const cursor = list.data?.next_cursor;
    if (cursor == null) return;
    read(cursor).then(
      (next) => list.update((d) => ({ sessions: [...d.sessions, ...next.sessions], next_cursor: next.next_cursor })),
      (failure: unknown) => setMoreError(describeError(failure)),
    );
  };
  return (
    <section>
      <div class="toolbar">
        <h1>Sessions</h1>
        <select
          aria-label="Session state"
          value={state}
          onChange={(e) =>
            (location.hash = e.currentTarget.value === '' ? '#/sessions' : `#/sessions?state=${e.currentTarget.value}`)
          }
        >
          <option value="">Any state</option>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {s.replaceAll('_', ' ')}
            </option>
          ))}
        </select>
      </div>
      <Status error={list.error}>{list.data === undefined ? 'Loading…' : undefined}</Status>
      {list.data !== undefined && list.data.sessions.length === 0 && <p class="muted">No session.</p>}
      {list.data !== undefined && list.data.sessions.length > 0 && (
        <div class="scroll">
          <table class="sessions">
            <thead>
              <tr>
                <th scope="col">session</th>
                <th scope="col">task</th>
                <th scope="col">state</th>
                <th scope="col">executor</th>
                <th scope="col">started</th>
                <th scope="col">changed</th>
              </tr>
            </thead>
            <tbody>
              {list.data.sessions.map((s) => (
                <tr key={s.id} data-session={s.id}>
                  <td>
                    <code>{s.id.slice(0, 8)}</code>
                  </td>
                  <td>
                    <TaskLink id={s.task_id} />
                  </td>
                  <td>
                    <StateBadge state={s.state} />
                    {s.last_error !== null && <span class="error-text"> {s.last_error}</span>}
                    {s.refresh_error !== null && (
                      <span class="error-text"> provider update failed: {s.refresh_error}</span>
                    )}
                  </td>
                  <td>{s.executor}</td>
                  <td>
                    <When iso={s.created_at} />
                  </td>
                  <td>
                    <When iso={s.updated_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data?.next_cursor != null && (
        <button type="button" class="secondary" onClick={more}>
          Load more
        </button>
      )}
      <Status error={moreError} />
    </section>
  );
}

/** A link to the session's task, by its title once read. */
function TaskLink(props: { id: string }) {
  const [title, setTitle] = useState<string | undefined>();
  useEffect(() => {
    ok(api.GET('/api/tasks/{id}', { params: { path: { id: props.id } } })).then(
      (t) => setTitle(t.title),
      () => setTitle(undefined),
    );
  }, [props.id]);
  return <a href={taskHref(props.id)}>{title ?? props.id.slice(0, 8)}</a>;
}
