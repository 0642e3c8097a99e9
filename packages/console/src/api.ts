// The REST API, same origin: the browser sends the HttpOnly sign-in cookie itself, so no token is
// ever held by this code (nor in localStorage or a URL).

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface ErrorBody {
  error?: { code?: string; message?: string };
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed: unknown = text.length > 0 ? JSON.parse(text) : null;
  if (!response.ok) {
    const error = (parsed as ErrorBody | null)?.error;
    throw new ApiError(
      response.status,
      error?.code ?? 'unknown',
      error?.message ?? `${method} ${path}: ${response.status}`,
    );
  }
  return parsed as T;
}

export const get = <T>(path: string): Promise<T> => api<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}): Promise<T> => api<T>('POST', path, body);

export interface Workspace {
  id: string;
  name: string;
}
export interface AgentProfile {
  id: string;
  name: string;
  command: string;
  supports_mcp: boolean;
}
export interface Task {
  id: string;
  workspace_id: string;
  parent_id: string | null;
  title: string;
  state: 'todo' | 'in_progress' | 'review' | 'done';
  autopilot: boolean;
  pending_action: string | null;
  repository_ids: string[];
  providers: string[];
  archived_at: string | null;
}
export interface Repository {
  id: string;
  name: string | null;
  remote_url: string | null;
  local_path: string | null;
  provider: string | null;
}
export interface SessionSummary {
  id: string;
  task_id: string;
  state: string;
  executor: string;
  surface: string;
  revision: number;
  applied_revision: number | null;
  created_at: string;
}
export interface ToolView {
  name: string;
  description?: string;
  input_schema?: unknown;
}
/** GET /api/sessions/:id/tools, or what the console rebuilds from GET /api/sessions/:id without it. */
export interface SessionTools {
  session_id: string;
  revision: number;
  applied_revision: number | null;
  providers: string[];
  question_capability: string;
  tools: ToolView[];
  /** `launch_config` when agentctl could not be asked: the list the stored config selects. */
  tools_from?: 'agentctl' | 'launch_config';
  agentctl?: { reachable: boolean };
}
/** The session's agent as agentctl reports it (GET /api/sessions/:id `agent`). */
export interface AgentView {
  status: string;
  pid: number | null;
  /** The ACP session mode set for the permission policy (null: the agent offers none). */
  mode_id?: string | null;
  /** spec_append | first_prompt | kept | none */
  system_prompt_delivery?: string;
  /** false: the agent never listed its MCP tools, so it has no kandev tools. */
  mcp_connected?: boolean;
}
export interface SessionDetail {
  state: string;
  last_error?: string | null;
  agent?: AgentView | null;
  revision: number;
  applied_revision: number | null;
  launch_config?: { providers?: string[]; question_capability?: string };
  tools?: string[] | null;
}
export interface Message {
  id: string;
  session_id: string | null;
  type: string;
  author: string;
  content: string;
  metadata: Record<string, unknown>;
  created_at: string;
}
export interface QuestionItem {
  id?: string;
  prompt: string;
  options?: { label: string; description?: string }[];
}
export interface Question {
  id: string;
  task_id: string;
  session_id: string | null;
  /** 'user' (ask_user_question_kandev) or 'permission' (an agent's permission request, policy ask). */
  kind?: string;
  state: string;
  questions: QuestionItem[];
  context: string | null;
  created_at: string;
}
export interface ParentQuestion {
  id: string;
  status: string;
  questions: QuestionItem[];
  context: string | null;
  answer: unknown;
  created_at: string;
}
export interface Link {
  id: string;
  repository_id: string;
  number?: number;
  iid?: number;
  project_path?: string;
  state?: string;
  url?: string;
  web_url?: string;
}
export interface Lifecycle {
  state: string | null;
  poll_error: string | null;
  polled_at: string | null;
}

/** A session's tools: the tools route when the backend has it, else the names GET /api/sessions/:id gives. */
export async function sessionTools(id: string): Promise<SessionTools> {
  try {
    return await get<SessionTools>(`/api/sessions/${id}/tools`);
  } catch (error) {
    // An older backend without the route: 404 "no route for ..." (an unknown session is also 404).
    if (!(error instanceof ApiError) || !error.message.startsWith('no route for')) throw error;
  }
  const detail = await get<SessionDetail>(`/api/sessions/${id}`);
  return {
    session_id: id,
    revision: detail.revision,
    applied_revision: detail.applied_revision,
    providers: detail.launch_config?.providers ?? [],
    question_capability: detail.launch_config?.question_capability ?? 'unknown',
    tools: (detail.tools ?? []).map((name) => ({ name })),
  };
}
