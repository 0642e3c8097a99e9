// A backend in process behind the real token check and route policy (as main.ts wires them) on a
// loopback port, with an admin client and tokens minted for any role and workspaces.
import {
  createApp,
  createAuthMiddleware,
  createInProcessBackend,
  type InProcessBackendOptions,
  listen,
  metricsRoute,
  type Role,
} from '@kandev/backend/testing';
import { BackendApi } from './backend-api';
import type { Cleanup } from './cleanup';

export async function startRolesBackend(cleanup: Cleanup, options: InProcessBackendOptions = {}) {
  const env = await createInProcessBackend(cleanup, options);
  const { backend, logger } = env;
  const app = createApp(logger, backend.routers, {
    auth: createAuthMiddleware(backend.tokens),
    policy: backend.policy,
    metrics: metricsRoute(backend.metrics.registry, logger),
    readiness: backend.readiness,
  });
  const server = await listen(app, '127.0.0.1', 0);
  cleanup.defer(() => server.close());
  cleanup.defer(() => backend.eventStreams.closeAll());
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const admin = new BackendApi(baseUrl, (await backend.tokens.create('admin')).token);

  /** A fresh token of this role, limited to `workspaces` (null: every workspace). */
  async function tokenFor(role: Role, workspaces: string[] | null = null): Promise<string> {
    return (await backend.tokens.create(`${role} ${workspaces?.join(',') ?? 'all'}`, { role, workspaces })).token;
  }

  return { env, backend, baseUrl, admin, tokenFor };
}
