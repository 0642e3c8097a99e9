import type { AgentctlApi, AgentctlConnector } from '../agentctl/agentctl-client';
import { Agentctls } from '../agentctl/agentctls';
import type { AgentctlEndpoint, ExecutorBackend, ExecutorKind, SessionPlacement } from '../agentctl/executor';
import { ExecutorRegistry } from './executor-registry';

const endpoint = (grpcAddress: string): AgentctlEndpoint => ({
  grpcAddress,
  mcpBaseUrl: `http://${grpcAddress}`,
  controlToken: `token-${grpcAddress}`,
});

/** A backend holding a fixed set of endpoints; acquire hands out the first (or a per-session one). */
function backend(kind: ExecutorKind, up: AgentctlEndpoint[]): ExecutorBackend & { released: string[] } {
  const released: string[] = [];
  return {
    kind,
    released,
    acquire: (sessionId) => Promise.resolve(kind === 'docker' ? endpoint(`c-${sessionId}:1`) : up[0]!),
    endpointAt: (address) => up.find((e) => e.grpcAddress === address),
    endpoints: () => up,
    release: (session) => {
      released.push(session.id);
      return Promise.resolve();
    },
    recover: () => Promise.resolve(),
    status: () => ({ running: up.length > 0, pid: null, grpcAddress: up[0]?.grpcAddress ?? null, mcpBaseUrl: null }),
    stop: () => Promise.resolve(),
  };
}

function registry(localUp = [endpoint('l:1')]) {
  const local = backend('local', localUp);
  const remote = backend('remote', [endpoint('r:1')]);
  const docker = backend('docker', [endpoint('d:1'), endpoint('d:2')]);
  const backends = new Map<string, ExecutorBackend>([
    ['local', local],
    ['remote', remote],
    ['docker', docker],
  ]);
  return { registry: new ExecutorRegistry(backends, 'local'), local, remote, docker };
}

const placed = (id: string, executor: string, agentctlAddress: string | null): SessionPlacement => ({
  id,
  executor,
  agentctlAddress,
});

describe('ExecutorRegistry', () => {
  test('a launch names its executor; an unknown name is invalid_argument listing the configured ones', async () => {
    const { registry: r } = registry();
    expect(await r.acquire('remote', 's1')).toEqual(endpoint('r:1'));
    expect(await r.acquire('docker', 's1')).toEqual(endpoint('c-s1:1'));
    expect(() => r.backend('k8s')).toThrow(/unknown executor 'k8s'; configured: local, remote, docker/);
  });

  test("a session's agentctl is found by its executor and recorded address, never another executor's", () => {
    const { registry: r } = registry();
    expect(r.endpointFor(placed('s', 'docker', 'd:2'))).toEqual(endpoint('d:2'));
    expect(r.endpointFor(placed('s', 'local', 'd:2'))).toBeUndefined();
    expect(r.endpointFor(placed('s', 'docker', 'd:9'))).toBeUndefined();
    expect(r.endpointFor(placed('s', 'docker', null))).toBeUndefined();
  });

  test('every agentctl up, once each; the status shown is the default executor’s', () => {
    const { registry: r } = registry();
    expect(r.endpoints().map((e) => e.grpcAddress)).toEqual(['l:1', 'r:1', 'd:1', 'd:2']);
    expect(r.status()).toMatchObject({ running: true, grpcAddress: 'l:1' });
    expect(r.defaultExecutor).toBe('local');
  });

  test('release goes to the executor that ran the session', async () => {
    const { registry: r, docker, local } = registry();
    await r.release(placed('s1', 'docker', 'd:1'));
    expect(docker.released).toEqual(['s1']);
    expect(local.released).toEqual([]);
  });

  test('an unconfigured default is refused', () => {
    expect(() => new ExecutorRegistry(new Map(), 'local')).toThrow(/unknown executor 'local'/);
  });
});

/** What `run` threw (fails the test when it returned). */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('Agentctls', () => {
  function setup(directory = registry().registry) {
    const calls: string[] = [];
    const clients: AgentctlConnector = {
      clientFor: (target) =>
        ({
          getSession: (id: string) => {
            calls.push(`GetSession ${id} @${target.grpcAddress}`);
            return Promise.resolve({});
          },
          listSessions: () => {
            calls.push(`ListSessions @${target.grpcAddress}`);
            return Promise.resolve([]);
          },
        }) as unknown as AgentctlApi,
    };
    return { agentctls: new Agentctls(directory, clients), calls };
  }

  test('per-session calls go to the agentctl the row records; the sweep asks every agentctl up', async () => {
    const { agentctls, calls } = setup();
    await agentctls.forSession(placed('s1', 'docker', 'd:2')).getSession('s1');
    await agentctls.forSession(placed('s2', 'local', 'l:1')).getSession('s2');
    for (const { client } of agentctls.up()) await client.listSessions();
    expect(calls).toEqual([
      'GetSession s1 @d:2',
      'GetSession s2 @l:1',
      'ListSessions @l:1',
      'ListSessions @r:1',
      'ListSessions @d:1',
      'ListSessions @d:2',
    ]);
    expect(agentctls.find(placed('s1', 'docker', 'd:2'))?.endpoint).toEqual(endpoint('d:2'));
  });

  test('a session whose agentctl is gone is not_found there (it no longer holds it)', () => {
    const { agentctls, calls } = setup();
    expect(thrown(() => agentctls.forSession(placed('s1', 'docker', 'd:9')))).toMatchObject({ code: 'not_found' });
    expect(thrown(() => agentctls.forSession(placed('s2', 'local', null)))).toMatchObject({ code: 'not_found' });
    expect(agentctls.find(placed('s1', 'docker', 'd:9'))).toBeUndefined();
    expect(calls).toEqual([]);
  });

  test('no agentctl up at all is unavailable (a later try may reach one)', () => {
    const local = backend('local', []);
    const { agentctls } = setup(new ExecutorRegistry(new Map([['local', local]]), 'local'));
    expect(thrown(() => agentctls.forSession(placed('s1', 'local', 'l:1')))).toMatchObject({
      code: 'unavailable',
      message: 'agentctl is not running',
    });
  });

  test("a launch gets its agentctl from the session's executor", async () => {
    const { agentctls, calls } = setup();
    const launched = await agentctls.forLaunch({ id: 's1', executor: 'docker' });
    expect(launched.endpoint).toEqual(endpoint('c-s1:1'));
    await launched.client.getSession('s1');
    expect(calls).toEqual(['GetSession s1 @c-s1:1']);
    await expect(agentctls.forLaunch({ id: 's1', executor: 'k8s' })).rejects.toThrow(/unknown executor 'k8s'/);
  });
});

describe('replica-local agentctls (replicas sharing a database)', () => {
  const mine = { ...endpoint('127.0.0.1:7421'), replica: 'replica-a' };
  const onReplica = (id: string, replica: string | null): SessionPlacement => ({
    ...placed(id, 'local', '127.0.0.1:7421'),
    agentctlReplica: replica,
  });

  function setup() {
    const directory = new ExecutorRegistry(new Map([['local', backend('local', [mine])]]), 'local');
    const published: string[] = [];
    const clients: AgentctlConnector = { clientFor: () => ({}) as AgentctlApi };
    const replicas = {
      home: 'replica-a',
      publish: (name: string, payload = '') => void published.push(`${name}:${payload}`),
    };
    return { directory, agentctls: new Agentctls(directory, clients, replicas), published };
  }

  test('a session is found on this replica’s own agentctl only when its row names this replica', () => {
    const { directory, agentctls } = setup();
    expect(directory.endpointFor(onReplica('s1', 'replica-a'))).toEqual(mine);
    // Another replica's local agentctl at the same address is not this one.
    expect(directory.endpointFor(onReplica('s2', 'replica-b'))).toBeUndefined();
    expect(directory.endpointFor(onReplica('s3', null))).toBeUndefined();
    expect(agentctls.servedElsewhere(onReplica('s1', 'replica-a'))).toBeUndefined();
    expect(agentctls.servedElsewhere(onReplica('s3', null))).toBeUndefined();
    expect(agentctls.servedElsewhere(onReplica('s2', 'replica-b'))).toBe('replica-b');
  });

  test('a call for another replica’s session is unavailable naming it; forward signals that replica', () => {
    const { agentctls, published } = setup();
    const elsewhere = onReplica('s2', 'replica-b');
    const error = thrown(() => agentctls.forSession(elsewhere));
    expect(error).toMatchObject({ code: 'unavailable' });
    expect((error as Error).message).toContain('backend replica-b');
    agentctls.forward(elsewhere);
    expect(published).toEqual(['session:s2']);
  });

  test('every endpoint up is listed by address and replica', () => {
    const other = { ...endpoint('127.0.0.1:7421') };
    const registry = new ExecutorRegistry(
      new Map([
        ['local', backend('local', [mine])],
        ['remote', backend('remote', [other])],
      ]),
      'local',
    );
    expect(registry.endpoints()).toEqual([mine, other]);
  });
});
