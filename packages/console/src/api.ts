// The REST API, same origin: the browser sends the HttpOnly sign-in cookie itself, so no token is
// ever held by this code (nor in localStorage or a URL). Paths, parameters and answers are typed by
// the backend's OpenAPI document (packages/rest-client, generated: npm run gen:rest-client); nothing
// here restates a REST shape. Bundled from source, like the protocol's event types.
import {
  createRestClient,
  errorOf,
  type ErrorCode,
  type operations,
  type Schemas,
  type Task,
} from '../../rest-client/src/index';

export type {
  AgentProfile,
  Message,
  MrLifecycle,
  MrLink,
  ParentQuestion,
  PrLink,
  Question,
  Repository,
  SessionAgent,
  SessionSummary,
  SessionTools,
  Task,
  Workspace,
} from '../../rest-client/src/index';

/** A page of GET /api/sessions. */
export type SessionPage = Schemas['SessionPage'];
/** The session as GET /api/sessions/:id answers it (named apart from the SessionDetail view). */
export type SessionRead = Schemas['Session'];
/** One asked item of an operator or parent question. */
export type QuestionItem = Schemas['Question']['questions'][number];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'unknown',
    message: string,
  ) {
    super(message);
  }
}

/** The typed client: `api.GET('/api/tasks/{id}', { params: { path: { id } } })`. */
export const api = createRestClient('', { credentials: 'same-origin' });

/** What every openapi-fetch call resolves to: the documented answer, or the parsed refusal. */
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The answer's data, or an ApiError in the backend's own words (its error envelope); a request that
 * reached nobody is an ApiError too (status 0, `unavailable`), never a bare TypeError.
 */
export async function ok<T>(pending: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await pending;
  } catch {
    throw new ApiError(0, 'unavailable', 'cannot reach the backend: is it running?');
  }
  const { response } = answer;
  if (!response.ok) {
    const error = errorOf(answer.error);
    throw new ApiError(
      response.status,
      error?.code ?? 'unknown',
      error?.message ?? `${response.url}: HTTP ${response.status}`,
    );
  }
  return answer.data as T;
}

/** A session's tools with their descriptions and input schemas (GET /api/sessions/:id/tools). */
export const sessionTools = (id: string) => ok(api.GET('/api/sessions/{id}/tools', { params: { path: { id } } }));

export type { ApiToken, QueuedPrompt } from '../../rest-client/src/index';
export type PermissionPolicy = Schemas['AgentProfile']['permission_policy'];
export type TaskQuery = operations['listTasks']['parameters']['query'];
/** POST /api/agent-profiles's body, as the document types it. */
export type NewAgentProfile = operations['createAgentProfile']['requestBody']['content']['application/json'];
/** PATCH /api/agent-profiles/:id's body: any field; `env` a merge patch (null removes a variable). */
export type ProfilePatch = NonNullable<operations['updateAgentProfile']['requestBody']>['content']['application/json'];
export type TaskListItem = Schemas['TaskListItem'];
export type TimelineEntry = Schemas['TimelineEntry'];

// The operator's actions and the lists the pages page through, one REST call each.
const idPath = (id: string) => ({ params: { path: { id } } });
export const cancelTurn = (id: string) => ok(api.POST('/api/sessions/{id}/cancel', { ...idPath(id), body: {} }));
export const stopSession = (id: string) => ok(api.POST('/api/sessions/{id}/stop', { ...idPath(id), body: {} }));
export const resumeSession = (id: string) => ok(api.POST('/api/sessions/{id}/resume', { ...idPath(id), body: {} }));
export const sessionPrompts = (id: string) => ok(api.GET('/api/sessions/{id}/prompts', idPath(id)));
export const archiveTask = (id: string) => ok(api.DELETE('/api/tasks/{id}', idPath(id)));
export const removeSource = (id: string, repositoryId: string) =>
  ok(
    api.DELETE('/api/tasks/{id}/workspace-sources/{repository_id}', {
      params: { path: { id, repository_id: repositoryId } },
    }),
  );
export const agentProfiles = () => ok(api.GET('/api/agent-profiles'));
export const createAgentProfile = (body: NewAgentProfile) => ok(api.POST('/api/agent-profiles', { body }));
export const updateAgentProfile = (id: string, body: ProfilePatch) =>
  ok(api.PATCH('/api/agent-profiles/{id}', { params: { path: { id } }, body }));
export const deleteAgentProfile = (id: string) =>
  ok(api.DELETE('/api/agent-profiles/{id}', { params: { path: { id } } }));
export const apiTokens = () => ok(api.GET('/api/tokens'));
export const createApiToken = (name: string) => ok(api.POST('/api/tokens', { body: { name } }));
export const revokeApiToken = (id: string) => ok(api.DELETE('/api/tokens/{id}', { params: { path: { id } } }));

export const relaunchSession = (id: string) => ok(api.POST('/api/sessions/{id}/relaunch', { ...idPath(id), body: {} }));
export const cancelPrompt = (id: string, promptId: string) =>
  ok(api.DELETE('/api/sessions/{id}/prompts/{prompt_id}', { params: { path: { id, prompt_id: promptId } } }));
export const unarchiveTask = (id: string) => ok(api.POST('/api/tasks/{id}/unarchive', { ...idPath(id), body: {} }));
export const setTaskState = (id: string, state: Task['state']) =>
  ok(api.PATCH('/api/tasks/{id}', { ...idPath(id), body: { state } }));
/** A task's timeline page (oldest first). */
export const timelinePage = (id: string, cursor?: string) =>
  ok(
    api.GET('/api/tasks/{id}/timeline', {
      params: { path: { id }, query: { limit: 200, ...(cursor === undefined ? {} : { cursor }) } },
    }),
  );
