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
  };
}

export class BackendApi {
  constructor(private readonly baseUrl: string) {}

  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
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
}
