import { useState } from 'preact/hooks';
import { api, ok, type SessionSummary, type Task } from './api';
import { describeError } from './errors';
import { SessionDetail } from './session-detail';
import { FINISHED, StateBadge, Status, When } from './widgets';

/** The session the page shows by default: the newest live one, else the newest. */
export const latestSession = (sessions: SessionSummary[]): SessionSummary | undefined =>
  [...sessions].reverse().find((s) => !FINISHED.has(s.state)) ?? sessions.at(-1);

/** The task's sessions, a launch button, and the chosen one's state, actions, prompt box and tools. */
export function Sessions(props: { task: Task; sessions: SessionSummary[]; tick: number; onChanged: () => void }) {
  const [chosen, setChosen] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  // Said here, not by the relaunched session's own button: the page moves on to the new session at
  // once, and the old session's view (with its button) goes away.
  const [notice, setNotice] = useState<string | undefined>();
  const current = props.sessions.find((s) => s.id === chosen) ?? latestSession(props.sessions);

  const launch = () => {
    ok(api.POST('/api/tasks/{id}/sessions', { params: { path: { id: props.task.id } }, body: {} })).then(
      (launched) => {
        setError(undefined);
        setNotice(undefined);
        setChosen(launched.session_id);
        props.onChanged();
      },
      (failure: unknown) => {
        setError(describeError(failure));
        props.onChanged(); // a launch agentctl refused is recorded failed: show it
      },
    );
  };

  return (
    <section class="panel" aria-labelledby="sessions-heading">
      <div class="toolbar">
        <h2 id="sessions-heading">Sessions</h2>
        <button type="button" onClick={launch} disabled={props.task.archived_at !== null} data-needs="operate">
          Launch session
        </button>
      </div>
      <Status error={error} />
      {notice !== undefined && (
        <p class="ok-text" role="status">
          {notice}
        </p>
      )}
      {props.sessions.length === 0 ? (
        <p class="muted">No session yet.</p>
      ) : (
        <div class="scroll">
          <table class="sessions">
            <thead>
              <tr>
                <th scope="col">session</th>
                <th scope="col">state</th>
                <th scope="col">executor</th>
                <th scope="col">revision (desired / applied)</th>
                <th scope="col">started</th>
              </tr>
            </thead>
            <tbody>
              {props.sessions.map((s) => (
                <tr key={s.id} class={s.id === current?.id ? 'chosen' : ''}>
                  <td>
                    <button
                      type="button"
                      class="link"
                      aria-pressed={s.id === current?.id}
                      aria-label={`Show session ${s.id.slice(0, 8)}`}
                      onClick={() => {
                        setNotice(undefined);
                        setChosen(s.id);
                      }}
                    >
                      <code>{s.id.slice(0, 8)}</code>
                    </button>
                  </td>
                  <td data-testid="session-state">
                    <StateBadge state={s.state} />
                  </td>
                  <td>{s.executor}</td>
                  <td>
                    {s.revision} / {s.applied_revision ?? '–'}
                  </td>
                  <td>
                    <When iso={s.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {current !== undefined && (
        <SessionDetail
          key={current.id}
          session={current}
          tick={props.tick}
          onChanged={props.onChanged}
          onRelaunched={(sessionId) => {
            setError(undefined);
            setNotice('Relaunched as a new session.');
            setChosen(sessionId);
          }}
        />
      )}
    </section>
  );
}
