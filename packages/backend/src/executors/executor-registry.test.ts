import type { AgentctlApi, AgentctlConnector } from './agentctl-client';
import type { AgentctlEndpoint, ExecutorBackend, ExecutorKind, SessionPlacement } from './executor';
import { ExecutorRegistry } from './executor-registry';
import { SessionRoutedConnector } from './session-routed-connector';

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
    status: () => ({ running: up.length > 0, pid: null, grpcAddress: null, mcpBaseUrl: null }),
    stop: () => Promise.resolve(),
  };
}

function registry() {
  const local = backend('local', [endpoint('l:1')]);
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

  test('every agentctl up, once each; current() is the default executor’s', () => {
    const { registry: r } = registry();
    expect(r.endpoints().map((e) => e.grpcAddress)).toEqual(['l:1', 'r:1', 'd:1', 'd:2']);
    expect(r.current()).toEqual(endpoint('l:1'));
    expect(r.name).toBe('local');
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

describe('SessionRoutedConnector', () => {
  function setup(rows: SessionPlacement[]) {
    const { registry: r } = registry();
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
    const connector = new SessionRoutedConnector({
      clients,
      directory: r,
      findSession: (id) => Promise.resolve(rows.find((row) => row.id === id)),
    });
    return { connector, calls };
  }

  test('per-session calls follow the session row; ListSessions stays on the endpoint asked', async () => {
    const { connector, calls } = setup([placed('s1', 'docker', 'd:2'), placed('s2', 'local', null)]);
    const client = connector.clientFor(endpoint('l:1'));
    await client.getSession('s1');
    await client.getSession('s2');
    await client.getSession('unknown');
    await client.listSessions();
    expect(calls).toEqual(['GetSession s1 @d:2', 'GetSession s2 @l:1', 'GetSession unknown @l:1', 'ListSessions @l:1']);
  });

  test('a session whose agentctl is gone is not_found there (it no longer holds it)', async () => {
    const { connector, calls } = setup([placed('s1', 'docker', 'd:9')]);
    await expect(connector.clientFor(endpoint('l:1')).getSession('s1')).rejects.toMatchObject({ code: 'not_found' });
    expect(calls).toEqual([]);
  });
});
