// Every state-changing route of the OpenAPI document (POST, PUT, PATCH, DELETE behind the token check),
// called for real as an admin token through the real token check and route policy (services in process,
// the fake agentctl attached): each succeeds and leaves at least one new audit entry (GET /api/audit)
// naming that token as its actor. A route added without a recipe here fails the test, naming it, and so
// does a route that records nothing. No entry holds a token, a credential or an env value. And the
// events of token and sign-in link changes reach only an admin's event stream.
import { ENDPOINT, FakeAgentctl, fakeAgentctlPort, ROUTE_GROUPS } from '@kandev/backend/testing';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { startRolesBackend } from '../../helpers/roles-backend';
import { type AuditWorld, RECIPES, RECORDS } from '../../helpers/audit-recipes';
import { SseStream } from '../../helpers/sse';

/** Served before the token check: no token, so no actor. */
const OPEN = new Set(['/healthz', '/readyz', '/login', '/logout']);
const CHANGING = ROUTE_GROUPS.flatMap((group) => group.routes)
  .filter((route) => route.method.toUpperCase() !== 'GET' && !OPEN.has(route.path))
  .map((route) => `${route.method.toUpperCase()} ${route.path}`);

interface AuditPage {
  entries: { id: string; type: string; actor: { kind: string; id: string } }[];
}

describe('the audit trail covers every state-changing route', () => {
  const cleanup = useCleanup();

  test('each succeeds as admin and records an entry with that token as actor', async () => {
    const agentctl = new FakeAgentctl();
    const { backend, baseUrl, admin } = await startRolesBackend(cleanup, { agentctl: fakeAgentctlPort(agentctl) });
    agentctl.attach((event) => void backend.turns.events.handle(event, ENDPOINT.grpcAddress));
    const minted = await backend.tokens.create('auditor');
    const api = new BackendApi(baseUrl, minted.token);
    // Set-ups go through another admin token, so whatever they start is not the audited token's doing.
    const world: AuditWorld = { api: admin, backend, agentctl, secrets: [minted.token] };

    /** The audited token's entries of this type, newest first. */
    const entries = async (type: string) => {
      const page = await api.request<AuditPage>('GET', `/api/audit?actor_id=${minted.id}&type=${type}&limit=1`);
      return page.body.entries;
    };
    const outcomes: string[] = [];
    for (const route of CHANGING) {
      const recipe = RECIPES[route];
      const type = RECORDS[route];
      if (recipe === undefined || type === undefined) {
        outcomes.push(`${route}: no recipe or event type in test/helpers/audit-recipes.ts`);
        continue;
      }
      const request = await recipe(world);
      const [before] = await entries(type);
      const answer = await api.request(route.split(' ')[0]!, request.path, request.body);
      const [after] = await entries(type);
      const recorded = after !== undefined && (before === undefined || Number(after.id) > Number(before.id));
      outcomes.push(
        answer.status >= 300
          ? `${route}: ${answer.status} ${JSON.stringify(answer.body)}`
          : `${route}: ${recorded ? 'recorded' : `no ${type} recorded`}`,
      );
    }
    expect(outcomes).toEqual(CHANGING.map((route) => `${route}: recorded`));

    // Names and ids only: no token, credential or env value in any entry.
    const pages: unknown[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `&cursor=${cursor}`;
      const page = await api.request<AuditPage & { next_cursor: string | null }>('GET', `/api/audit?limit=200${query}`);
      pages.push(page.body.entries);
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    const text = JSON.stringify(pages);
    for (const secret of world.secrets) expect(text).not.toContain(secret);
  });

  test('token and sign-in link changes reach only an admin’s stream; the rest reaches every workspace’s', async () => {
    const { baseUrl, admin, tokenFor } = await startRolesBackend(cleanup);
    const viewer = await tokenFor('viewer');
    const operator = await tokenFor('operator');
    await admin.create('/api/tokens', { name: 'minted', role: 'viewer' });
    await admin.create('/api/console/login-links', {});
    await admin.create('/api/agent-profiles', { name: 'p', command: 'agent', supports_mcp: true });
    const barrier = await admin.workspace('barrier');
    const typesSeenBy = async (token: string) => {
      const stream = await SseStream.open(`${baseUrl}/api/events?after=0`, cleanup, { token });
      await stream.next(
        (event) =>
          event.type === 'workspace.created' &&
          event.data.workspace !== undefined &&
          (event.data.workspace as { id: string }).id === barrier,
        'the barrier',
      );
      stream.close();
      return [...new Set(stream.events.map((event) => event.type))].sort();
    };
    const adminTypes = await typesSeenBy(await tokenFor('admin'));
    expect(adminTypes).toEqual(['agent_profile.created', 'login_link.created', 'token.created', 'workspace.created']);
    const others = ['agent_profile.created', 'workspace.created'];
    expect(await typesSeenBy(viewer)).toEqual(others);
    expect(await typesSeenBy(operator)).toEqual(others);
  });
});
