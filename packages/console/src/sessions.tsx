import { useEffect, useState } from 'preact/hooks';
import {
  api,
  ApiError,
  ok,
  type SessionAgent as AgentView,
  type SessionRead,
  type SessionSummary,
  type SessionTools,
  sessionTools,
  type Task,
} from './api';

const FINISHED = new Set(['completed', 'cancelled', 'failed']);

/** The task's sessions, a launch button, and the chosen one's tools and prompt box. */
export function Sessions(props: { task: Task; sessions: SessionSummary[]; tick: number; onLaunched: () => void }) {
  const [chosen, setChosen] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const latest = [...props.sessions].reverse().find((s) => !FINISHED.has(s.state)) ?? props.sessions.at(-1);
  const current = props.sessions.find((s) => s.id === chosen) ?? latest;

  const launch = () => {
    ok(api.POST('/api/tasks/{id}/sessions', { params: { path: { id: props.task.id } }, body: {} })).then(
      (launched) => {
        setError(undefined);
        setChosen(launched.session_id);
        props.onLaunched();
      },
      (failure: unknown) => setError(failure instanceof ApiError ? failure.message : String(failure)),
    );
  };

  return (
    <section class="panel" aria-label="Sessions">
      <div class="toolbar">
        <h2>Sessions</h2>
        <button type="button" onClick={launch} disabled={props.task.archived_at !== null}>
          Launch session
        </button>
      </div>
      {error !== undefined && <p class="error">{error}</p>}
      {props.sessions.length === 0 ? (
        <p class="muted">No session yet.</p>
      ) : (
        <table class="sessions">
          <thead>
            <tr>
              <th>session</th>
              <th>executor</th>
              <th>state</th>
              <th>desired / applied revision</th>
            </tr>
          </thead>
          <tbody>
            {props.sessions.map((s) => (
              <tr key={s.id} class={s.id === current?.id ? 'chosen' : ''} onClick={() => setChosen(s.id)}>
                <td>
                  <code>{s.id.slice(0, 8)}</code>
                </td>
                <td>{s.executor}</td>
                <td data-testid="session-state">{s.state}</td>
                <td>
                  {s.revision} / {s.applied_revision ?? '–'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {current !== undefined && <SessionDetail session={current} tick={props.tick} />}
    </section>
  );
}

function SessionDetail(props: { session: SessionSummary; tick: number }) {
  const [tools, setTools] = useState<SessionTools | undefined>();
  const [detail, setDetail] = useState<SessionRead | undefined>();
  const [error, setError] = useState<string | undefined>();
  const { id, state, revision, applied_revision: applied } = props.session;
  useEffect(() => {
    let live = true;
    sessionTools(id).then(
      (read) => live && (setTools(read), setError(undefined)),
      (failure: unknown) => live && setError(String(failure)),
    );
    ok(api.GET('/api/sessions/{id}', { params: { path: { id } } })).then(
      (read) => live && setDetail(read),
      () => live && setDetail(undefined),
    );
    return () => {
      live = false;
    };
  }, [id, state, revision, applied, props.tick]);

  return (
    <div class="session">
      {error !== undefined && <p class="error">{error}</p>}
      {detail?.last_error != null && (
        <p class="panel attention" data-testid="session-last-error">
          {detail.last_error}
        </p>
      )}
      {detail?.agent != null && <AgentLine agent={detail.agent} />}
      {tools !== undefined && (
        <>
          <p>
            Question capability: <strong data-testid="question-capability">{tools.question_capability}</strong> ·
            providers: <span data-testid="session-providers">{tools.providers.join(', ') || 'none'}</span> · revision{' '}
            {tools.revision} (applied {tools.applied_revision ?? '–'})
            {tools.agentctl !== undefined && !tools.agentctl.reachable && (
              <span class="badge attention">agentctl unreachable</span>
            )}
          </p>
          <h3>
            Tools (<span data-testid="tool-count">{tools.tools.length}</span>)
            {tools.tools_from === 'launch_config' && <span class="muted"> as configured (agentctl not asked)</span>}
          </h3>
          <ul class="tools" aria-label="Tools">
            {tools.tools.map((tool) => (
              <li key={tool.name} data-tool={tool.name}>
                <details>
                  <summary>
                    <code>{tool.name}</code>{' '}
                    {tool.description !== undefined && tool.description !== '' && (
                      <span class="muted">{tool.description}</span>
                    )}
                  </summary>
                  <pre>{JSON.stringify(tool.input_schema ?? {}, null, 2)}</pre>
                </details>
              </li>
            ))}
          </ul>
        </>
      )}
      {!FINISHED.has(state) && <PromptBox sessionId={id} />}
    </div>
  );
}

function PromptBox(props: { sessionId: string }) {
  const [prompt, setPrompt] = useState('');
  const [error, setError] = useState<string | undefined>();
  const send = (event: Event) => {
    event.preventDefault();
    ok(api.POST('/api/sessions/{id}/prompts', { params: { path: { id: props.sessionId } }, body: { prompt } })).then(
      () => {
        setPrompt('');
        setError(undefined);
      },
      (failure: unknown) => setError(failure instanceof ApiError ? failure.message : String(failure)),
    );
  };
  return (
    <form class="prompt" onSubmit={send}>
      <textarea
        aria-label="Prompt"
        placeholder="Tell the agent…"
        rows={3}
        value={prompt}
        onInput={(e) => setPrompt(e.currentTarget.value)}
      />
      <button type="submit" disabled={prompt.trim() === ''}>
        Send prompt
      </button>
      {error !== undefined && <p class="error">{error}</p>}
    </form>
  );
}

const DELIVERY: Record<string, string> = {
  spec_append: 'appended to the agent’s own',
  first_prompt: 'sent with the first prompt',
  kept: 'kept by the resumed session',
  none: 'not delivered',
};

/** The agent process and what its handshake set up: mode, system prompt, MCP connection. */
function AgentLine(props: { agent: AgentView }) {
  const { status, pid, mode_id: mode, system_prompt_delivery: delivery, mcp_connected: mcp } = props.agent;
  const handshakeDone = status === 'ready' || status === 'prompting';
  return (
    <p data-testid="session-agent">
      Agent: <strong>{status}</strong>
      {pid !== null && <> · pid {pid}</>}
      {mode != null && (
        <>
          {' '}
          · mode <code>{mode}</code>
        </>
      )}
      {delivery !== undefined && handshakeDone && <> · system prompt {DELIVERY[delivery] ?? delivery}</>}
      {mcp === true && <span class="badge">MCP connected</span>}
      {mcp === false && handshakeDone && <span class="badge attention">no MCP connection: no kandev tools</span>}
    </p>
  );
}
