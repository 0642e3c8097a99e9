import type { ContainerInspectInfo } from 'dockerode';
import {
  CONTAINER_TLS_PATHS,
  CONTAINER_TOKEN_PATH,
  CONTAINER_WORKSPACE_MOUNT,
  containerSpec,
  labelFilter,
  publishedPorts,
} from './docker-container-spec';

const INPUT = {
  image: 'kandev/agentctl:dev',
  name: 'kandev-agentctl-abc-1',
  backendId: 'b-1',
  executorName: 'docker',
  sessionId: 's-1',
  agentctlId: 'a-1',
  tokenFile: '/data/docker-agentctl/kandev-agentctl-abc-1.token',
  publishHost: '127.0.0.1',
  logLevel: 'info',
  toolCallTimeoutMs: undefined,
  network: undefined,
};

describe('containerSpec', () => {
  test('labels identify the backend, the executor, the session and the agentctl instance', () => {
    expect(containerSpec(INPUT).Labels).toEqual({
      'dev.kandev.managed-by': 'kandev-docker-executor',
      'dev.kandev.backend-id': 'b-1',
      'dev.kandev.executor': 'docker',
      'dev.kandev.session-id': 's-1',
      'dev.kandev.agentctl-id': 'a-1',
    });
  });

  test('the control token is a read-only mounted file, never an env value', () => {
    const spec = containerSpec(INPUT);
    expect(spec.HostConfig?.Binds).toEqual([`${INPUT.tokenFile}:${CONTAINER_TOKEN_PATH}:ro`]);
    expect(spec.Env).toContain(`KANDEV_AGENTCTL_TOKEN_FILE=${CONTAINER_TOKEN_PATH}`);
    expect(spec.Env?.some((entry) => entry.startsWith('KANDEV_AGENTCTL_TOKEN='))).toBe(false);
  });

  test("with a workspace the container runs as the backend's uid with a writable HOME; without, as the image's user", () => {
    const workspace = { hostPath: '/data/workspaces/t-1', gitDirs: [] };
    const mounted = containerSpec({ ...INPUT, workspace, workspaceUser: '1000:1000' });
    expect(mounted.User).toBe('1000:1000');
    expect(mounted.Env).toContain('HOME=/tmp');
    const bare = containerSpec({ ...INPUT, workspaceUser: '1000:1000' });
    expect(bare.User).toBeUndefined();
    expect(bare.Env?.some((e) => e.startsWith('HOME='))).toBe(false);
  });

  test('the task workspace is mounted read-write at /workspace, each worktree source git dir at its own path', () => {
    const workspace = {
      hostPath: '/data/workspaces/t-1',
      gitDirs: ['/src/app/.git', '/src/lib/.git', '/src/app/.git'],
    };
    const binds = containerSpec({ ...INPUT, workspace }).HostConfig?.Binds;
    expect(CONTAINER_WORKSPACE_MOUNT).toBe('/workspace');
    expect(binds).toEqual([
      `${INPUT.tokenFile}:${CONTAINER_TOKEN_PATH}:ro`,
      '/data/workspaces/t-1:/workspace',
      '/src/app/.git:/src/app/.git',
      '/src/lib/.git:/src/lib/.git',
    ]);
    expect(binds?.some((bind) => bind.includes(':/workspace:ro'))).toBe(false);
  });

  test('TLS: agentctl’s certificate, key and client CA are read-only mounts its TLS variables point at', () => {
    const tlsFiles = {
      cert: '/data/c.tls-cert.pem',
      key: '/data/c.tls-key.pem',
      clientCa: '/data/c.tls-client-ca.pem',
    };
    const spec = containerSpec({ ...INPUT, tlsFiles });
    expect(spec.HostConfig?.Binds).toEqual([
      `${INPUT.tokenFile}:${CONTAINER_TOKEN_PATH}:ro`,
      `${tlsFiles.cert}:${CONTAINER_TLS_PATHS.cert}:ro`,
      `${tlsFiles.key}:${CONTAINER_TLS_PATHS.key}:ro`,
      `${tlsFiles.clientCa}:${CONTAINER_TLS_PATHS.clientCa}:ro`,
    ]);
    expect(spec.Env).toEqual(
      expect.arrayContaining([
        `KANDEV_AGENTCTL_TLS_CERT=${CONTAINER_TLS_PATHS.cert}`,
        `KANDEV_AGENTCTL_TLS_KEY=${CONTAINER_TLS_PATHS.key}`,
        `KANDEV_AGENTCTL_TLS_CLIENT_CA=${CONTAINER_TLS_PATHS.clientCa}`,
      ]),
    );
    const serverOnly = containerSpec({ ...INPUT, tlsFiles: { ...tlsFiles, clientCa: undefined } });
    expect(serverOnly.Env?.some((entry) => entry.startsWith('KANDEV_AGENTCTL_TLS_CLIENT_CA='))).toBe(false);
    expect(containerSpec(INPUT).Env?.some((entry) => entry.startsWith('KANDEV_AGENTCTL_TLS_'))).toBe(false);
  });

  test('gRPC and MCP are published on the publish host only, at ports the engine picks', () => {
    const bindings = containerSpec(INPUT).HostConfig?.PortBindings as Record<string, unknown>;
    expect(bindings).toEqual({
      '7421/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }],
      '7422/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }],
    });
  });

  test('the label filter selects one backend and executor, optionally one session', () => {
    expect(labelFilter('b-1', 'docker', 's-1')).toEqual({
      label: [
        'dev.kandev.managed-by=kandev-docker-executor',
        'dev.kandev.backend-id=b-1',
        'dev.kandev.executor=docker',
        'dev.kandev.session-id=s-1',
      ],
    });
  });
});

describe('publishedPorts', () => {
  const inspect = (ports: Record<string, unknown>) =>
    ({ NetworkSettings: { Ports: ports } }) as unknown as ContainerInspectInfo;

  test('reads both host ports', () => {
    const info = inspect({
      '7421/tcp': [{ HostIp: '127.0.0.1', HostPort: '40001' }],
      '7422/tcp': [{ HostIp: '127.0.0.1', HostPort: '40002' }],
    });
    expect(publishedPorts(info)).toEqual({ grpcPort: 40001, mcpPort: 40002 });
  });

  test('undefined until both are published', () => {
    expect(publishedPorts(inspect({ '7421/tcp': [{ HostPort: '40001' }], '7422/tcp': null }))).toBeUndefined();
    expect(publishedPorts(inspect({}))).toBeUndefined();
  });
});
