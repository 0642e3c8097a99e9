import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './generated/openapi';

// The backend's REST contract for its clients (the console and the CLI): `paths`, `components` and
// `operations` are generated from GET /api/openapi.json (npm run gen:rest-client), and the client is
// openapi-fetch over them, so a call names a documented path and gets the documented answer's type.
// Nothing here restates a shape by hand: a route's shape changes in its backend view schema only.

export type { components, operations, paths };

/** The named shapes of the document (`components.schemas`), e.g. `Schemas['Task']`. */
export type Schemas = components['schemas'];

export type Workspace = Schemas['Workspace'];
export type Repository = Schemas['Repository'];
export type AgentProfile = Schemas['AgentProfile'];
export type Task = Schemas['Task'];
export type SessionSummary = Schemas['SessionSummary'];
export type Session = Schemas['Session'];
export type SessionAgent = Schemas['SessionAgent'];
export type SessionTools = Schemas['SessionTools'];
export type LaunchedSession = Schemas['LaunchedSession'];
export type Message = Schemas['Message'];
export type Question = Schemas['Question'];
export type ParentQuestion = Schemas['ParentQuestion'];
export type QueuedPrompt = Schemas['QueuedPrompt'];
export type EnqueuedPrompt = Schemas['EnqueuedPrompt'];
export type PermissionGrant = Schemas['PermissionGrant'];
export type ApiToken = Schemas['ApiToken'];
export type PrLink = Schemas['PrLink'];
export type MrLink = Schemas['MrLink'];
export type PrLifecycle = Schemas['PrLifecycle'];
export type MrLifecycle = Schemas['MrLifecycle'];

/** The error envelope every refusal carries, and its codes (an enum in the document). */
export type ErrorEnvelope = Schemas['Error'];
export type ErrorCode = ErrorEnvelope['error']['code'];

/** The typed client: `client.GET('/api/tasks/{id}', { params: { path: { id } } })`. */
export type RestClient = Client<paths>;

/**
 * A client for the backend at `baseUrl` ('' for the page's own origin). `options` are openapi-fetch's:
 * `fetch`, `headers` (e.g. the bearer token), `credentials`...
 */
export function createRestClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}): RestClient {
  return createClient<paths>({ ...options, baseUrl });
}

/** The envelope's `error` when `body` is one (a refusal's parsed JSON), else undefined. */
export function errorOf(body: unknown): ErrorEnvelope['error'] | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === 'string' && typeof message === 'string' ? (error as ErrorEnvelope['error']) : undefined;
}
