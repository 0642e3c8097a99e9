import { ExecutorConfigError, parseExecutorsConfig } from './executor-config';

const TOKEN = 'remote-control-token-0123456789abcdef-xyz';
const REMOTE = {
  KANDEV_REMOTE_AGENTCTL_ADDRESS: 'agentctl:7421',
  KANDEV_REMOTE_AGENTCTL_MCP_URL: 'http://127.0.0.1:7422/',
  KANDEV_REMOTE_AGENTCTL_TOKEN: TOKEN,
  KANDEV_REMOTE_AGENTCTL_INSECURE: 'true',
};
const noFiles = (path: string): string => {
  throw new Error(`unexpected read of ${path}`);
};

function variables(env: Record<string, string>, readText = noFiles): string[] {
  try {
    parseExecutorsConfig(env, readText);
  } catch (error) {
    if (error instanceof ExecutorConfigError) return error.variables;
    throw error;
  }
  throw new Error('expected an ExecutorConfigError');
}

describe('parseExecutorsConfig', () => {
  test('defaults: the local executor only', () => {
    expect(parseExecutorsConfig({}, noFiles)).toEqual({
      defaultName: 'local',
      entries: [{ name: 'local', kind: 'local' }],
      dockerHost: undefined,
    });
  });

  test('local, docker and remote, with a default and docker options', () => {
    const config = parseExecutorsConfig(
      {
        ...REMOTE,
        KANDEV_EXECUTORS: 'local, docker,remote',
        KANDEV_DEFAULT_EXECUTOR: 'docker',
        KANDEV_DOCKER_IMAGE: 'kandev/agentctl:ci',
        KANDEV_DOCKER_START_TIMEOUT_MS: '5000',
        DOCKER_HOST: 'unix:///run/docker.sock',
      },
      noFiles,
    );
    expect(config.defaultName).toBe('docker');
    expect(config.dockerHost).toBe('unix:///run/docker.sock');
    expect(config.entries).toEqual([
      { name: 'local', kind: 'local' },
      {
        name: 'docker',
        kind: 'docker',
        image: 'kandev/agentctl:ci',
        publishHost: '127.0.0.1',
        network: undefined,
        startTimeoutMs: 5000,
      },
      {
        name: 'remote',
        kind: 'remote',
        grpcAddress: 'agentctl:7421',
        mcpBaseUrl: 'http://127.0.0.1:7422',
        controlToken: TOKEN,
      },
    ]);
  });

  test('the remote token from a file (trimmed)', () => {
    const config = parseExecutorsConfig(
      {
        KANDEV_EXECUTORS: 'remote',
        KANDEV_REMOTE_AGENTCTL_ADDRESS: '127.0.0.1:9000',
        KANDEV_REMOTE_AGENTCTL_MCP_URL: 'http://127.0.0.1:9001',
        KANDEV_REMOTE_AGENTCTL_TOKEN_FILE: '/run/secrets/token',
        KANDEV_REMOTE_AGENTCTL_INSECURE: 'true',
      },
      (path) => (path === '/run/secrets/token' ? `${TOKEN}\n` : ''),
    );
    expect(config.defaultName).toBe('remote');
    expect(config.entries[0]).toMatchObject({ kind: 'remote', controlToken: TOKEN });
  });

  test('named profiles pick docker or remote with their own options', () => {
    const config = parseExecutorsConfig(
      {
        KANDEV_EXECUTOR_PROFILES: JSON.stringify({
          sandbox: { kind: 'docker', image: 'kandev/agentctl:sandbox' },
          'build-host': {
            kind: 'remote',
            address: '10.0.0.7:7421',
            mcp_url: 'http://10.0.0.7:7422',
            token: TOKEN,
            insecure: true,
          },
        }),
      },
      noFiles,
    );
    expect(config.entries.map((entry) => [entry.name, entry.kind])).toEqual([
      ['local', 'local'],
      ['sandbox', 'docker'],
      ['build-host', 'remote'],
    ]);
    expect(config.entries[1]).toMatchObject({ image: 'kandev/agentctl:sandbox' });
  });

  test('a remote may name where its agentctl sees the workspaces dir (shared storage); absolute only', () => {
    const env = { ...REMOTE, KANDEV_EXECUTORS: 'remote', KANDEV_REMOTE_AGENTCTL_WORKSPACES_DIR: '/shared/ws' };
    expect(parseExecutorsConfig(env, noFiles).entries[0]).toMatchObject({
      kind: 'remote',
      workspacesDir: '/shared/ws',
    });
    expect(parseExecutorsConfig({ ...REMOTE, KANDEV_EXECUTORS: 'remote' }, noFiles).entries[0]).not.toHaveProperty(
      'workspacesDir',
    );
    const profile = { kind: 'remote', address: 'h:7421', mcp_url: 'http://h:7422', token: TOKEN, insecure: true };
    const profiles = (dir: string) => ({
      KANDEV_EXECUTOR_PROFILES: JSON.stringify({ far: { ...profile, workspaces_dir: dir } }),
    });
    expect(parseExecutorsConfig(profiles('/mnt/ws'), noFiles).entries[1]).toMatchObject({ workspacesDir: '/mnt/ws' });
    expect(variables(profiles('mnt/ws'))).toEqual(['KANDEV_EXECUTOR_PROFILES']);
    expect(variables({ ...env, KANDEV_REMOTE_AGENTCTL_WORKSPACES_DIR: 'ws' })).toEqual([
      'KANDEV_REMOTE_AGENTCTL_WORKSPACES_DIR',
    ]);
  });

  test('none: no built-in executor (no local agentctl), only the profiles', () => {
    const far = { kind: 'remote', address: 'h:7421', mcp_url: 'http://h:7422', token: TOKEN, insecure: true };
    const config = parseExecutorsConfig(
      { KANDEV_EXECUTORS: 'none', KANDEV_EXECUTOR_PROFILES: JSON.stringify({ far }) },
      noFiles,
    );
    expect(config.entries.map((e) => [e.name, e.kind])).toEqual([['far', 'remote']]);
    expect(config.defaultName).toBe('far');
  });

  test.each<[string, Record<string, string>, string[]]>([
    ['an unknown kind', { KANDEV_EXECUTORS: 'local,kubernetes' }, ['KANDEV_EXECUTORS']],
    ['an empty list', { KANDEV_EXECUTORS: ' , ' }, ['KANDEV_EXECUTORS']],
    ['none with a built-in', { KANDEV_EXECUTORS: 'none,local' }, ['KANDEV_EXECUTORS']],
    ['none without a profile', { KANDEV_EXECUTORS: 'none' }, ['KANDEV_EXECUTORS', 'KANDEV_EXECUTOR_PROFILES']],
    ['a default that is not configured', { KANDEV_DEFAULT_EXECUTOR: 'docker' }, ['KANDEV_DEFAULT_EXECUTOR']],
    [
      'remote without its settings',
      { KANDEV_EXECUTORS: 'remote' },
      [
        'KANDEV_REMOTE_AGENTCTL_ADDRESS',
        'KANDEV_REMOTE_AGENTCTL_MCP_URL',
        'KANDEV_REMOTE_AGENTCTL_TOKEN',
        'KANDEV_REMOTE_AGENTCTL_TOKEN_FILE',
      ],
    ],
    ['a short remote token', { ...REMOTE, KANDEV_REMOTE_AGENTCTL_TOKEN: 'short' }, ['KANDEV_REMOTE_AGENTCTL_TOKEN']],
    ['a bad address', { ...REMOTE, KANDEV_REMOTE_AGENTCTL_ADDRESS: 'http://x' }, ['KANDEV_REMOTE_AGENTCTL_ADDRESS']],
    ['profiles that are not JSON', { KANDEV_EXECUTOR_PROFILES: '{' }, ['KANDEV_EXECUTOR_PROFILES']],
    [
      'a profile with an unknown field',
      { KANDEV_EXECUTOR_PROFILES: '{"x":{"kind":"docker","privileged":true}}' },
      ['KANDEV_EXECUTOR_PROFILES'],
    ],
    [
      'a profile named like a built-in',
      { KANDEV_EXECUTOR_PROFILES: '{"local":{"kind":"docker"}}' },
      ['KANDEV_EXECUTOR_PROFILES'],
    ],
    ['a bad DOCKER_HOST', { DOCKER_HOST: '/var/run/docker.sock' }, ['DOCKER_HOST']],
  ])('%s is refused, naming the variables', (_name, env, expected) => {
    expect(variables(env)).toEqual(expected);
  });

  test('an unreadable remote token file is named, not its path or contents', () => {
    const failing = () => {
      throw new Error('ENOENT');
    };
    const env = { ...REMOTE, KANDEV_EXECUTORS: 'remote', KANDEV_REMOTE_AGENTCTL_TOKEN: '' };
    delete (env as Record<string, string>).KANDEV_REMOTE_AGENTCTL_TOKEN;
    expect(variables({ ...env, KANDEV_REMOTE_AGENTCTL_TOKEN_FILE: '/nope' }, failing)).toEqual([
      'KANDEV_REMOTE_AGENTCTL_TOKEN',
      'KANDEV_REMOTE_AGENTCTL_TOKEN_FILE',
    ]);
  });
});
