/** A tiny typed REST client for the backend, as an operator or executor would use it. */
export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
}

export interface LaunchedSession {
  session_id: string;
  mcp_url: string;
  mcp_token: string;
  launch_config: {
    session_id: string;
    task_id: string;
    surface: string;
    question_capability: 'user' | 'parent' | 'none';
    providers: string[];
    revision: number;
    owns_task_title: boolean;
    system_prompt: string;
    /** The agent's command; `cwd` is its task workspace (docs/workspaces.md). */
    agent?: { cwd: string | null } | null;
  };
}

/** POST /api/sessions/:id/prompts (202). */
export interface QueuedPromptBody {
  queued_prompt_id: string;
  message_id: string;
  session_id: string;
  status: 'queued' | 'dispatched' | 'completed' | 'failed';
  /** The task's pending parent questions this prompt superseded (new operator input). */
  superseded_question_ids: string[];
}

/** One item of GET /api/sessions/:id/prompts. */
export interface PromptItemBody {
  id: string;
  session_id: string | null;
  prompt: string;
  source: string;
  /** 'answer': a parent's answer to the session's question (drains first). */
  priority: 'normal' | 'answer';
  status: 'queued' | 'dispatched' | 'completed' | 'failed' | 'cancelled';
  stop_reason: string | null;
  error: string | null;
  /** Sent to the agent (dispatched_at set). */
  delivered: boolean;
  created_at: string;
  dispatched_at: string | null;
  finished_at: string | null;
}

/** The turn fields of GET /api/sessions/:id (and of the stop response). */
export interface SessionTurnBody {
  id: string;
  state: 'created' | 'starting' | 'running' | 'waiting_for_input' | 'completed' | 'failed' | 'cancelled';
  last_error: string | null;
  acp_session_id: string | null;
  agent: {
    status: 'none' | 'starting' | 'ready' | 'prompting' | 'exited';
    pid: number | null;
    acp_session_id: string | null;
    loaded: boolean;
    current_prompt_id: string | null;
    exit_reason: string | null;
  } | null;
}

export class BackendApi {
  /** `token`: the operator API token (a spawned backend's; in-process apps without auth need none). */
  constructor(
    private readonly baseUrl: string,
    private readonly token?: string,
  ) {}

  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text.length > 0 ? JSON.parse(text) : null) as T };
  }

  /** POST that must succeed with 201; returns the body. */
  async create<T = Record<string, unknown>>(path: string, body: unknown): Promise<T> {
    const response = await this.request<T>('POST', path, body);
    if (response.status !== 201) {
      throw new Error(`POST ${path} -> ${response.status}: ${JSON.stringify(response.body)}`);
    }
    return response.body;
  }

  async workspace(name = 'ws'): Promise<string> {
    return (await this.create<{ id: string }>('/api/workspaces', { name })).id;
  }

  async repository(
    workspaceId: string,
    source: Record<string, unknown>,
  ): Promise<{ id: string; provider: string | null }> {
    return this.create('/api/repositories', { workspace_id: workspaceId, ...source });
  }

  async task(workspaceId: string, fields: Record<string, unknown>): Promise<{ id: string; autopilot: boolean }> {
    return this.create('/api/tasks', { workspace_id: workspaceId, ...fields });
  }

  async launch(taskId: string, body: Record<string, unknown> = {}): Promise<LaunchedSession> {
    return this.create<LaunchedSession>(`/api/tasks/${taskId}/sessions`, body);
  }

  /** Queues an operator prompt for the session (202 expected by the caller). */
  queuePrompt(sessionId: string, prompt: string): Promise<ApiResponse<QueuedPromptBody>> {
    return this.request<QueuedPromptBody>('POST', `/api/sessions/${sessionId}/prompts`, { prompt });
  }

  async prompts(sessionId: string): Promise<PromptItemBody[]> {
    const response = await this.request<{ items: PromptItemBody[] }>('GET', `/api/sessions/${sessionId}/prompts`);
    if (response.status !== 200) throw new Error(`GET prompts -> ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body.items;
  }

  async sessionTurns(sessionId: string): Promise<SessionTurnBody> {
    const response = await this.request<SessionTurnBody>('GET', `/api/sessions/${sessionId}`);
    if (response.status !== 200) throw new Error(`GET session -> ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body;
  }

  stopSession(sessionId: string): Promise<ApiResponse<SessionTurnBody>> {
    return this.request<SessionTurnBody>('POST', `/api/sessions/${sessionId}/stop`, {});
  }

  cancelTurn(sessionId: string): Promise<ApiResponse<{ cancelled: boolean; prompt_id: string | null }>> {
    return this.request('POST', `/api/sessions/${sessionId}/cancel`, {});
  }

  resumeSession(sessionId: string): Promise<ApiResponse<LaunchedSession>> {
    return this.request<LaunchedSession>('POST', `/api/sessions/${sessionId}/resume`, {});
  }
}
