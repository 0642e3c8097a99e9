import { AppError } from '@kandev/protocol';
import { loadConfig, type ReadTextFile } from './config';

const TOKEN = 'a-control-token-with-at-least-32-chars-0123';
const noFile = (): string => {
  throw new Error('no file reads expected');
};

function failure(env: Record<string, string | undefined>, readText: ReadTextFile = noFile): AppError {
  try {
    loadConfig(env, readText);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected loadConfig to fail');
}

describe('loadConfig', () => {
  test('defaults: loopback, documented ports, info logs, 10 s shutdown', () => {
    expect(loadConfig({ KANDEV_AGENTCTL_TOKEN: TOKEN }, noFile)).toEqual({
      controlToken: TOKEN,
      host: '127.0.0.1',
      grpcPort: 7421,
      mcpPort: 7422,
      allowedHosts: [],
      tls: undefined,
      logLevel: 'info',
      shutdownTimeoutMs: 10_000,
      toolCallTimeoutMs: 30_000,
      permissionTimeoutMs: 900_000,
      agentStartTimeoutMs: 60_000,
      agentStopGraceMs: 3_000,
      mcpConnectTimeoutMs: 15_000,
      toolsRefreshGraceMs: 2_000,
      mcpLimits: { perSession: 16, total: 1024, idleTimeoutMs: 600_000 },
      httpTimeouts: { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 },
      agentBaseEnv: {},
    });
  });

  test('every variable is read and normalised', () => {
    const config = loadConfig(
      {
        KANDEV_AGENTCTL_TOKEN_FILE: '/run/secrets/agentctl',
        KANDEV_AGENTCTL_HOST: '0.0.0.0',
        KANDEV_AGENTCTL_GRPC_PORT: '0',
        KANDEV_AGENTCTL_MCP_PORT: '9000',
        KANDEV_AGENTCTL_ALLOWED_HOSTS: ' Agentctl.Internal, ,[::1],10.0.0.7 ',
        LOG_LEVEL: 'debug',
        KANDEV_SHUTDOWN_TIMEOUT_MS: '2500',
        KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS: '1500',
        KANDEV_AGENTCTL_PERMISSION_TIMEOUT_MS: '2500',
        KANDEV_AGENTCTL_AGENT_START_TIMEOUT_MS: '4000',
        KANDEV_AGENTCTL_AGENT_STOP_GRACE_MS: '250',
        KANDEV_AGENTCTL_MCP_CONNECT_TIMEOUT_MS: '5000',
        KANDEV_AGENTCTL_TOOLS_REFRESH_GRACE_MS: '700',
        KANDEV_AGENTCTL_METRICS_ADDR: '[::1]:9464',
        KANDEV_MCP_MAX_CONNECTIONS_PER_SESSION: '4',
        KANDEV_MCP_MAX_CONNECTIONS: '64',
        KANDEV_MCP_IDLE_TIMEOUT_MS: '60000',
        KANDEV_HTTP_HEADERS_TIMEOUT_MS: '2000',
        KANDEV_HTTP_REQUEST_TIMEOUT_MS: '8000',
        KANDEV_HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
        PATH: '/usr/bin',
        HOME: '/home/a',
      },
      (path) => (path === '/run/secrets/agentctl' ? `  ${TOKEN}\n` : noFile()),
    );
    expect(config).toEqual({
      controlToken: TOKEN,
      host: '0.0.0.0',
      grpcPort: 0,
      mcpPort: 9000,
      allowedHosts: ['agentctl.internal', '[::1]', '10.0.0.7'],
      logLevel: 'debug',
      shutdownTimeoutMs: 2500,
      toolCallTimeoutMs: 1500,
      permissionTimeoutMs: 2500,
      agentStartTimeoutMs: 4000,
      agentStopGraceMs: 250,
      mcpConnectTimeoutMs: 5000,
      toolsRefreshGraceMs: 700,
      metricsAddress: { host: '::1', port: 9464 },
      mcpLimits: { perSession: 4, total: 64, idleTimeoutMs: 60_000 },
      httpTimeouts: { headersMs: 2_000, requestMs: 8_000, keepAliveMs: 1_000 },
      agentBaseEnv: { PATH: '/usr/bin', HOME: '/home/a' },
    });
  });

  test('the agent base environment is the allow-list only: no KANDEV_ variable, no other secret', () => {
    const { agentBaseEnv } = loadConfig(
      { KANDEV_AGENTCTL_TOKEN: TOKEN, PATH: '/bin', LANG: 'C.UTF-8', AWS_SECRET_ACCESS_KEY: 'x', NODE_OPTIONS: '-r x' },
      noFile,
    );
    expect(agentBaseEnv).toEqual({ PATH: '/bin', LANG: 'C.UTF-8' });
  });

  test('KANDEV_AGENTCTL_METRICS_ADDR: off by default, host:port when set, anything else refused', () => {
    expect(loadConfig({ KANDEV_AGENTCTL_TOKEN: TOKEN }, noFile).metricsAddress).toBeUndefined();
    const address = (value: string) =>
      loadConfig({ KANDEV_AGENTCTL_TOKEN: TOKEN, KANDEV_AGENTCTL_METRICS_ADDR: value }, noFile).metricsAddress;
    expect(address('0.0.0.0:9464')).toEqual({ host: '0.0.0.0', port: 9464 });
    expect(address('metrics.internal:0')).toEqual({ host: 'metrics.internal', port: 0 });
    for (const bad of ['9464', ':9464', '127.0.0.1', '127.0.0.1:99999', '::1:9464', 'a b:1', '127.0.0.1:x']) {
      expect(() => address(bad)).toThrow(/KANDEV_AGENTCTL_METRICS_ADDR/);
    }
  });

  test('blank variables count as unset', () => {
    expect(
      loadConfig({ KANDEV_AGENTCTL_TOKEN: TOKEN, KANDEV_AGENTCTL_TOKEN_FILE: '', LOG_LEVEL: ' ' }, noFile),
    ).toMatchObject({
      logLevel: 'info',
    });
  });

  const SECRET_VALUE = 'secret-value-that-must-never-be-echoed';
  test.each<[string, Record<string, string>, string]>([
    ['no token at all', {}, 'KANDEV_AGENTCTL_TOKEN or KANDEV_AGENTCTL_TOKEN_FILE'],
    ['both token and file', { KANDEV_AGENTCTL_TOKEN: TOKEN, KANDEV_AGENTCTL_TOKEN_FILE: '/x' }, 'only one of'],
    ['short token', { KANDEV_AGENTCTL_TOKEN: 'short-secret' }, 'KANDEV_AGENTCTL_TOKEN:'],
    ['unreadable token file', { KANDEV_AGENTCTL_TOKEN_FILE: `/nope/${SECRET_VALUE}` }, 'KANDEV_AGENTCTL_TOKEN_FILE:'],
    [
      'port not a number',
      { KANDEV_AGENTCTL_TOKEN: TOKEN, KANDEV_AGENTCTL_GRPC_PORT: SECRET_VALUE },
      'KANDEV_AGENTCTL_GRPC_PORT',
    ],
    ['port too large', { KANDEV_AGENTCTL_TOKEN: TOKEN, KANDEV_AGENTCTL_MCP_PORT: '70000' }, 'KANDEV_AGENTCTL_MCP_PORT'],
    ['bad log level', { KANDEV_AGENTCTL_TOKEN: TOKEN, LOG_LEVEL: SECRET_VALUE }, 'LOG_LEVEL'],
    [
      'host with port',
      { KANDEV_AGENTCTL_TOKEN: TOKEN, KANDEV_AGENTCTL_ALLOWED_HOSTS: 'a.example:80' },
      'KANDEV_AGENTCTL_ALLOWED_HOSTS',
    ],
    ['zero timeout', { KANDEV_AGENTCTL_TOKEN: TOKEN, KANDEV_SHUTDOWN_TIMEOUT_MS: '0' }, 'KANDEV_SHUTDOWN_TIMEOUT_MS'],
    [
      'tool call timeout not a number',
      { KANDEV_AGENTCTL_TOKEN: TOKEN, KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS: SECRET_VALUE },
      'KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS',
    ],
    [
      'agent start timeout not a number',
      { KANDEV_AGENTCTL_TOKEN: TOKEN, KANDEV_AGENTCTL_AGENT_START_TIMEOUT_MS: SECRET_VALUE },
      'KANDEV_AGENTCTL_AGENT_START_TIMEOUT_MS',
    ],
    [
      'agent stop grace of zero',
      { KANDEV_AGENTCTL_TOKEN: TOKEN, KANDEV_AGENTCTL_AGENT_STOP_GRACE_MS: '0' },
      'KANDEV_AGENTCTL_AGENT_STOP_GRACE_MS',
    ],
    [
      'tool call timeout over an hour',
      { KANDEV_AGENTCTL_TOKEN: TOKEN, KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS: '3600001' },
      'KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS',
    ],
    [
      'connection cap of zero',
      { KANDEV_AGENTCTL_TOKEN: TOKEN, KANDEV_MCP_MAX_CONNECTIONS_PER_SESSION: '0' },
      'KANDEV_MCP_MAX_CONNECTIONS_PER_SESSION',
    ],
    [
      'headers timeout above the request timeout',
      { KANDEV_AGENTCTL_TOKEN: TOKEN, KANDEV_HTTP_HEADERS_TIMEOUT_MS: '40000' },
      'KANDEV_HTTP_HEADERS_TIMEOUT_MS: must not be above KANDEV_HTTP_REQUEST_TIMEOUT_MS',
    ],
  ])('%s: names the variable, never its value', (_name, env, named) => {
    const error = failure(env, (path) => {
      throw new Error(`cannot open ${path}`);
    });
    expect(error.code).toBe('invalid_argument');
    expect(error.message).toContain(named);
    expect(error.message).not.toContain(SECRET_VALUE);
    expect(error.message).not.toContain(TOKEN);
  });

  test('several bad variables are all named at once', () => {
    const error = failure({ KANDEV_AGENTCTL_TOKEN: TOKEN, KANDEV_AGENTCTL_GRPC_PORT: 'x', LOG_LEVEL: 'loud' });
    expect(error.message).toMatch(/KANDEV_AGENTCTL_GRPC_PORT.*LOG_LEVEL/);
  });

  describe('gRPC TLS', () => {
    const CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const KEY = '-----BEGIN EC PRIVATE KEY-----\nMHc\n-----END EC PRIVATE KEY-----\n';
    const files: Record<string, string> = { '/tls/cert.pem': CERT, '/tls/key.pem': KEY, '/tls/ca.pem': CERT };
    const read: ReadTextFile = (path) => {
      const text = files[path];
      if (text === undefined) throw new Error('ENOENT');
      return text;
    };
    const base = { KANDEV_AGENTCTL_TOKEN: TOKEN };
    const pair = { KANDEV_AGENTCTL_TLS_CERT: '/tls/cert.pem', KANDEV_AGENTCTL_TLS_KEY: '/tls/key.pem' };

    test('cert and key: TLS; with a client CA: client certificates required', () => {
      expect(loadConfig({ ...base, ...pair }, read).tls).toEqual({ cert: CERT, key: KEY, clientCa: undefined });
      const mtls = loadConfig({ ...base, ...pair, KANDEV_AGENTCTL_TLS_CLIENT_CA: '/tls/ca.pem' }, read);
      expect(mtls.tls).toEqual({ cert: CERT, key: KEY, clientCa: CERT });
    });

    test.each<[string, Record<string, string>, RegExp]>([
      ['a cert without a key', { KANDEV_AGENTCTL_TLS_CERT: '/tls/cert.pem' }, /set both KANDEV_AGENTCTL_TLS_CERT/],
      ['a key without a cert', { KANDEV_AGENTCTL_TLS_KEY: '/tls/key.pem' }, /set both KANDEV_AGENTCTL_TLS_CERT/],
      [
        'a client CA alone',
        { KANDEV_AGENTCTL_TLS_CLIENT_CA: '/tls/ca.pem' },
        /CLIENT_CA needs KANDEV_AGENTCTL_TLS_CERT/,
      ],
      ['an unreadable key', { ...pair, KANDEV_AGENTCTL_TLS_KEY: '/nope' }, /KANDEV_AGENTCTL_TLS_KEY: cannot read/],
      ['a key given as the cert', { ...pair, KANDEV_AGENTCTL_TLS_CERT: '/tls/key.pem' }, /TLS_CERT: not a PEM/],
    ])('%s is a configuration error, never plaintext', (_name, env, message) => {
      const error = failure({ ...base, ...env }, read);
      expect(error.code).toBe('invalid_argument');
      expect(error.message).toMatch(message);
    });
  });
});
