// Console sign-in links across replicas (docs/console.md): two backend processes on one PostgreSQL
// database, as behind a Service without session affinity. A link issued through one replica signs a
// browser in through the other, once: a second redeem fails on either replica, and of two redeems of
// one link at once on both replicas, exactly one signs in.
import { testDatabaseUrl } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { startAgentctl, tempDir } from '../../helpers/processes';
import { type ProductionReplica, productionSecrets, startProductionReplicas } from '../../helpers/production-replicas';

const INVALID = '/#/signin-link-invalid';

interface Redeemed {
  location: string | null;
  cookie: string | null;
}

/** The link's code, from the `{url}` a replica issued. */
async function issue(replica: ProductionReplica): Promise<string> {
  const issued = await replica.api.request<{ url: string }>('POST', '/api/console/login-links', {});
  expect(issued.status).toBe(201);
  const code = new URL(issued.body.url).searchParams.get('code');
  if (code === null) throw new Error(`no code in ${issued.body.url}`);
  return code;
}

/** GET /login?code= on a replica, as the browser opening the link (the redirect is not followed). */
async function redeem(replica: ProductionReplica, code: string): Promise<Redeemed> {
  const response = await fetch(`${replica.url}/login?code=${encodeURIComponent(code)}`, { redirect: 'manual' });
  expect(response.status).toBe(303);
  return { location: response.headers.get('location'), cookie: response.headers.get('set-cookie') };
}

describe('console sign-in links on two replicas', () => {
  const cleanup = useCleanup();

  test('issued through one replica, redeemed through the other, once', async () => {
    const databaseUrl = await testDatabaseUrl(tempDir(cleanup), cleanup);
    if (databaseUrl === undefined) throw new Error('replicas need PostgreSQL: run in the integration-pg project');
    const secrets = productionSecrets(cleanup);
    const settings = { databaseUrl, secrets, agentctl: await startAgentctl(cleanup) };
    const [a, b] = (await startProductionReplicas(cleanup, settings, 2)) as [ProductionReplica, ProductionReplica];

    const code = await issue(a);
    const signedIn = await redeem(b, code);
    expect(signedIn.location).toBe('/');
    const cookie = signedIn.cookie?.split(';')[0];
    expect(cookie).toBe(`kandev_session=${secrets.apiToken}`);
    for (const replica of [a, b]) {
      const read = await fetch(`${replica.url}/api/workspaces`, { headers: { cookie: cookie ?? '' } });
      expect(read.status).toBe(200);
    }
    for (const replica of [b, a]) expect(await redeem(replica, code)).toEqual({ location: INVALID, cookie: null });

    for (let i = 0; i < 5; i += 1) {
      const raced = await issue(i % 2 === 0 ? a : b);
      const outcomes = await Promise.all([redeem(a, raced), redeem(b, raced)]);
      expect(outcomes.map((outcome) => outcome.location).sort()).toEqual(['/', INVALID]);
      expect(outcomes.filter((outcome) => outcome.cookie !== null)).toHaveLength(1);
    }
  });
});
