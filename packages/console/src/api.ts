// The REST API, same origin: the browser sends the HttpOnly sign-in cookie itself, so no token is
// ever held by this code (nor in localStorage or a URL). Paths, parameters and answers are typed by
// the backend's OpenAPI document (packages/rest-client, generated: npm run gen:rest-client); nothing
// here restates a REST shape. Bundled from source, like the protocol's event types.
import { createRestClient, errorOf, type ErrorCode, type Schemas } from '../../rest-client/src/index';

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
