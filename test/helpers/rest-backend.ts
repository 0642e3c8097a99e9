// What REST tests share: the error contract every route answers with, the real built backend started
// with an operator API client and one workspace, and row counts read straight from the backend's
// database (to prove that a refused request wrote nothing).
import { openTestDatabase } from '@kandev/backend/testing';
import { type ApiResponse, BackendApi } from './backend-api';
import type { Cleanup } from './cleanup';
import { startBackend } from './processes';

export type Json = Record<string, unknown>;

/** Every error answer: a code, a message, optional details and the request's id. */
export interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown>; request_id: string };
}

/** The response is the error `code` with `status`, carries a request id, and its message matches. */
export function expectError(response: ApiResponse<unknown>, status: number, code: string, message?: RegExp): ErrorBody {
  const body = response.body as ErrorBody;
  expect({ status: response.status, code: body.error?.code }).toEqual({ status, code });
  expect(typeof body.error.request_id).toBe('string');
  if (message !== undefined) expect(body.error.message).toMatch(message);
  return body;
}

/** A started backend (with `env`), an API client holding its admin token, and a workspace 'main'. */
export async function startRestBackend(cleanup: Cleanup, env: Record<string, string> = {}) {
  const backend = await startBackend(cleanup, env);
  const api = new BackendApi(backend.ready.url, backend.apiToken);
  return { backend, api, workspaceId: await api.workspace('main') };
}

/** The rows of `table` in the backend's database under `dataDir`. */
export async function countRows(dataDir: string, table: string): Promise<number> {
  const db = await openTestDatabase(dataDir);
  try {
    const [row] = await db(table).count<{ n: number }[]>({ n: '*' });
    return Number(row?.n);
  } finally {
    await db.destroy();
  }
}
