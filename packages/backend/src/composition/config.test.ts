import { resolve } from 'node:path';
import { ConfigError, loadConfig, parseHostList } from './config';

const TOKEN = 'a-control-token-that-is-long-enough-0123';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  test('defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      http: { host: '127.0.0.1', port: 7420 },
      dataDir: './data',
      gitlabHosts: [],
      gitlabInsecureHosts: [],
      agentctl: {
        host: '127.0.0.1',
        grpcPort: 7421,
        mcpPort: 7422,
        token: undefined,
        bin: undefined,
        callTimeoutMs: 5000,
        toolCallTimeoutMs: undefined,
      },
      toolCallHeartbeatMs: 5000,
      questionTimeoutMs: 600_000,
      refreshRetry: { baseMs: 500, maxAttempts: 8, maxDelayMs: 30_000 },
      logLevel: 'info',
      shutdownTimeoutMs: 10_000,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  test('reads every variable', () => {
    const config = loadConfig({
      KANDEV_HTTP_HOST: '0.0.0.0',
      KANDEV_HTTP_PORT: '0',
      KANDEV_DATA_DIR: '/var/lib/kandev',
      KANDEV_GITLAB_HOSTS: ' Git.Example.com, ,gitlab.internal ',
      KANDEV_GITLAB_INSECURE_HOSTS: 'GitLab.Lab, 127.0.0.1',
      KANDEV_AGENTCTL_HOST: '127.0.0.2',
      KANDEV_AGENTCTL_GRPC_PORT: '9001',
      KANDEV_AGENTCTL_MCP_PORT: '9002',
      KANDEV_AGENTCTL_TOKEN: TOKEN,
      KANDEV_AGENTCTL_BIN: '/opt/agentctl/main.js',
      LOG_LEVEL: 'debug',
      KANDEV_SHUTDOWN_TIMEOUT_MS: '2500',
      KANDEV_AGENTCTL_TIMEOUT_MS: '750',
      KANDEV_REFRESH_RETRY_BASE_MS: '50',
      KANDEV_REFRESH_RETRY_MAX_ATTEMPTS: '0',
      KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS: '2000',
      KANDEV_TOOL_CALL_HEARTBEAT_MS: '400',
      KANDEV_QUESTION_TIMEOUT_MS: '1500',
      PATH: '/usr/bin',
    });
    expect(config).toMatchObject({
      http: { host: '0.0.0.0', port: 0 },
      dataDir: '/var/lib/kandev',
      gitlabHosts: ['git.example.com', 'gitlab.internal'],
      gitlabInsecureHosts: ['gitlab.lab', '127.0.0.1'],
      agentctl: {
        host: '127.0.0.2',
        grpcPort: 9001,
        mcpPort: 9002,
        token: TOKEN,
        bin: '/opt/agentctl/main.js',
        callTimeoutMs: 750,
        passEnv: { PATH: '/usr/bin' },
        toolCallTimeoutMs: 2000,
      },
      toolCallHeartbeatMs: 400,
      questionTimeoutMs: 1500,
      refreshRetry: { baseMs: 50, maxAttempts: 0, maxDelayMs: 30_000 },
      logLevel: 'debug',
      shutdownTimeoutMs: 2500,
    });
  });

  test('the event log: retention and the stream cap (defaults, and as set)', () => {
    expect(loadConfig({}).events).toMatchObject({
      retention: { maxAgeMs: 7 * 86_400_000, maxRows: 100_000 },
      maxStreams: 64,
      pingMs: 15_000,
    });
    const config = loadConfig({
      KANDEV_EVENT_RETENTION_DAYS: '2',
      KANDEV_EVENT_RETENTION_MAX_ROWS: '5000',
      KANDEV_EVENT_MAX_STREAMS: '3',
    });
    expect(config.events).toMatchObject({ retention: { maxAgeMs: 2 * 86_400_000, maxRows: 5000 }, maxStreams: 3 });
  });

  test('the audit trail keeps its entries a year by default, or as set, whatever the event log keeps', () => {
    expect(loadConfig({}).events.auditMaxAgeMs).toBe(365 * 86_400_000);
    const config = loadConfig({ KANDEV_AUDIT_RETENTION_DAYS: '730', KANDEV_EVENT_RETENTION_DAYS: '2' });
    expect(config.events).toMatchObject({ auditMaxAgeMs: 730 * 86_400_000, retention: { maxAgeMs: 2 * 86_400_000 } });
  });

  test('a blank variable takes its default', () => {
    expect(loadConfig({ KANDEV_HTTP_PORT: '', KANDEV_AGENTCTL_TOKEN: '  ', LOG_LEVEL: '' })).toMatchObject({
      http: { port: 7420 },
      agentctl: { token: undefined },
      logLevel: 'info',
    });
  });

  test.each([
    ['KANDEV_HTTP_PORT', 'http'],
    ['KANDEV_HTTP_PORT', '65536'],
    ['KANDEV_HTTP_PORT', '-1'],
    ['KANDEV_AGENTCTL_GRPC_PORT', '1.5'],
    ['KANDEV_AGENTCTL_TOKEN', 'too-short'],
    ['LOG_LEVEL', 'verbose'],
    ['KANDEV_SHUTDOWN_TIMEOUT_MS', '0'],
    ['KANDEV_AGENTCTL_TIMEOUT_MS', 'soon'],
    ['KANDEV_REFRESH_RETRY_BASE_MS', '0'],
    ['KANDEV_REFRESH_RETRY_MAX_ATTEMPTS', '-1'],
    ['KANDEV_REFRESH_RETRY_MAX_ATTEMPTS', '51'],
    ['KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS', '0'],
    ['KANDEV_TOOL_CALL_HEARTBEAT_MS', 'often'],
    ['KANDEV_EVENT_RETENTION_DAYS', '0'],
    ['KANDEV_EVENT_RETENTION_MAX_ROWS', '10'],
    ['KANDEV_EVENT_MAX_STREAMS', 'many'],
    ['KANDEV_AUDIT_RETENTION_DAYS', '0'],
    ['KANDEV_AUDIT_RETENTION_DAYS', 'forever'],
  ])('%s=%j is rejected by name, without its value', (name, value) => {
    const error = configError({ [name]: value });
    expect(error.variables).toEqual([name]);
    expect(error.message).toBe(`invalid configuration: ${name}`);
    expect(error.message).not.toContain(value);
  });

  test.each([
    [{ KANDEV_TOOL_CALL_HEARTBEAT_MS: '30000' }],
    [{ KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS: '1000', KANDEV_TOOL_CALL_HEARTBEAT_MS: '1000' }],
  ])('a heartbeat not faster than the tool call timeout is rejected: %j', (env) => {
    expect(configError(env).variables).toEqual([
      'KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS',
      'KANDEV_TOOL_CALL_HEARTBEAT_MS',
    ]);
  });

  test('GitLab MR poller: defaults, every variable, and bad values named', () => {
    expect(loadConfig({}).gitlabPoll).toEqual({
      intervalMs: 60_000,
      jitterMs: 5_000,
      concurrency: 4,
      backoffBaseMs: 60_000,
      backoffMaxMs: 900_000,
    });
    const config = loadConfig({
      KANDEV_GITLAB_POLL_INTERVAL_MS: '250',
      KANDEV_GITLAB_POLL_JITTER_MS: '0',
      KANDEV_GITLAB_POLL_CONCURRENCY: '2',
      KANDEV_GITLAB_BACKOFF_BASE_MS: '100',
      KANDEV_GITLAB_BACKOFF_MAX_MS: '1000',
    });
    expect(config.gitlabPoll).toEqual({
      intervalMs: 250,
      jitterMs: 0,
      concurrency: 2,
      backoffBaseMs: 100,
      backoffMaxMs: 1000,
    });
    expect(Object.isFrozen(config.gitlabPoll)).toBe(true);
    for (const [name, value] of [
      ['KANDEV_GITLAB_POLL_INTERVAL_MS', '0'],
      ['KANDEV_GITLAB_POLL_JITTER_MS', '-1'],
      ['KANDEV_GITLAB_POLL_CONCURRENCY', '0'],
      ['KANDEV_GITLAB_POLL_CONCURRENCY', '65'],
      ['KANDEV_GITLAB_BACKOFF_BASE_MS', 'soon'],
    ] as const) {
      expect(configError({ [name]: value }).variables).toEqual([name]);
    }
    expect(
      configError({ KANDEV_GITLAB_BACKOFF_BASE_MS: '2000', KANDEV_GITLAB_BACKOFF_MAX_MS: '1000' }).variables,
    ).toEqual(['KANDEV_GITLAB_BACKOFF_BASE_MS', 'KANDEV_GITLAB_BACKOFF_MAX_MS']);
  });

  test("GitHub PR poller: the API URL (http(s), no credentials or query) and its interval; the rest is GitLab's", () => {
    const defaults = loadConfig({});
    expect(defaults.githubApiUrl).toBe('https://api.github.com');
    expect(defaults.githubPoll).toEqual({ ...defaults.gitlabPoll, intervalMs: 60_000 });
    const config = loadConfig({
      KANDEV_GITHUB_API_URL: 'https://ghe.example.com/api/v3',
      KANDEV_GITHUB_POLL_INTERVAL_MS: '250',
      KANDEV_GITLAB_POLL_CONCURRENCY: '2',
    });
    expect(config.githubApiUrl).toBe('https://ghe.example.com/api/v3');
    expect(config.githubPoll).toMatchObject({ intervalMs: 250, concurrency: 2 });
    for (const value of ['ftp://x', 'https://user:pw@api.github.com', 'https://api.github.com?x=1', 'nope']) {
      expect(configError({ KANDEV_GITHUB_API_URL: value }).variables).toEqual(['KANDEV_GITHUB_API_URL']);
    }
    expect(configError({ KANDEV_GITHUB_POLL_INTERVAL_MS: '0' }).variables).toEqual(['KANDEV_GITHUB_POLL_INTERVAL_MS']);
  });

  test('REST access: loopback names and the listen host by default; extras from env, canonical', () => {
    expect(loadConfig({}).http).toMatchObject({
      allowedHosts: ['localhost', '127.0.0.1', '[::1]'],
      allowedOrigins: [],
    });
    const config = loadConfig({
      KANDEV_HTTP_HOST: 'Kandev.LAN',
      KANDEV_ALLOWED_HOSTS: ' backend , 10.0.0.7,::1,',
      KANDEV_ALLOWED_ORIGINS: 'https://UI.example.com:443/, http://10.0.0.7:8080',
    });
    expect(config.http).toMatchObject({
      allowedHosts: ['localhost', '127.0.0.1', '[::1]', 'kandev.lan', 'backend', '10.0.0.7'],
      allowedOrigins: ['https://ui.example.com', 'http://10.0.0.7:8080'],
    });
    expect(loadConfig({ KANDEV_HTTP_HOST: '0.0.0.0' }).http.allowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]']);
  });

  test('REST access: a bad entry names its variable, never its value', () => {
    const error = configError({ KANDEV_ALLOWED_HOSTS: 'ok.example, secret-value:99', KANDEV_ALLOWED_ORIGINS: '*' });
    expect(error.variables).toEqual(['KANDEV_ALLOWED_HOSTS', 'KANDEV_ALLOWED_ORIGINS']);
    expect(error.message).not.toMatch(/secret-value/);
    expect(configError({ KANDEV_ALLOWED_ORIGINS: 'http://ui.example/app' }).variables).toEqual([
      'KANDEV_ALLOWED_ORIGINS',
    ]);
  });

  test('operator API token: none by default, from the variable or the file (never both), too short refused', () => {
    const token = 'operator-token-0123456789abcdefghij'; // 35 characters
    expect(loadConfig({}).apiToken).toBeUndefined();
    expect(loadConfig({ KANDEV_API_TOKEN: '' }).apiToken).toBeUndefined(); // compose passes it through empty
    expect(loadConfig({ KANDEV_API_TOKEN: token }).apiToken).toEqual({ token, source: 'KANDEV_API_TOKEN' });
    const fromFile = loadConfig({ KANDEV_API_TOKEN_FILE: '/run/secrets/api' }, () => `${token}\n`).apiToken;
    expect(fromFile).toEqual({ token, source: '/run/secrets/api (KANDEV_API_TOKEN_FILE)' });
    expect(configError({ KANDEV_API_TOKEN: 'short' }).variables).toEqual(['KANDEV_API_TOKEN']);
    // 31 characters: one short of the minimum, from either source, with the rule (never the value) said.
    const almost = 'x'.repeat(31);
    expect(configError({ KANDEV_API_TOKEN: almost }).message).toBe(
      'invalid configuration: KANDEV_API_TOKEN (an operator API token needs at least 32 characters)',
    );
    let fileError: unknown;
    try {
      loadConfig({ KANDEV_API_TOKEN_FILE: '/run/secrets/api' }, () => `${almost}\n`);
    } catch (error) {
      fileError = error;
    }
    expect(fileError).toMatchObject({
      variables: ['KANDEV_API_TOKEN_FILE'],
      message: expect.stringMatching(/at least 32/),
    });
    expect(loadConfig({ KANDEV_API_TOKEN: 'y'.repeat(32) }).apiToken?.token).toBe('y'.repeat(32));
    const both = { KANDEV_API_TOKEN: token, KANDEV_API_TOKEN_FILE: '/x' };
    expect(configError(both).variables).toEqual(['KANDEV_API_TOKEN', 'KANDEV_API_TOKEN_FILE']);
    expect(configError({ KANDEV_API_TOKEN_FILE: '/no/such/file' }).message).not.toContain(token);
    expect(configError({ KANDEV_API_TOKEN_FILE: '/no/such/file' }).variables).toEqual(['KANDEV_API_TOKEN_FILE']);
  });

  test('failed-authentication limit: 10 per minute by default, configurable; proxies trusted only when listed', () => {
    expect(loadConfig({}).http.authFailureLimit).toEqual({ maxFailures: 10, windowMs: 60_000, trustedProxies: [] });
    const env = {
      KANDEV_AUTH_FAILURE_LIMIT: '3',
      KANDEV_AUTH_FAILURE_WINDOW_MS: '5000',
      KANDEV_TRUSTED_PROXIES: '10.0.0.1, ::1',
    };
    expect(loadConfig(env).http.authFailureLimit).toEqual({
      maxFailures: 3,
      windowMs: 5000,
      trustedProxies: ['10.0.0.1', '::1'],
    });
    expect(configError({ KANDEV_AUTH_FAILURE_LIMIT: '0' }).variables).toEqual(['KANDEV_AUTH_FAILURE_LIMIT']);
    expect(configError({ KANDEV_TRUSTED_PROXIES: 'proxy.internal' }).variables).toEqual(['KANDEV_TRUSTED_PROXIES']);
  });

  test('HTTP timeouts: short defaults, every variable, headers never above the request timeout', () => {
    expect(loadConfig({}).http.timeouts).toEqual({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 });
    const env = {
      KANDEV_HTTP_HEADERS_TIMEOUT_MS: '2000',
      KANDEV_HTTP_REQUEST_TIMEOUT_MS: '8000',
      KANDEV_HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
    };
    expect(loadConfig(env).http.timeouts).toEqual({ headersMs: 2_000, requestMs: 8_000, keepAliveMs: 1_000 });
    // The local agentctl gets the same timeouts and its MCP limits.
    expect(loadConfig({ ...env, KANDEV_MCP_IDLE_TIMEOUT_MS: '1000' }).agentctl.passEnv).toEqual({
      ...env,
      KANDEV_MCP_IDLE_TIMEOUT_MS: '1000',
    });
    expect(configError({ KANDEV_HTTP_HEADERS_TIMEOUT_MS: '60000' }).variables).toEqual([
      'KANDEV_HTTP_HEADERS_TIMEOUT_MS',
      'KANDEV_HTTP_REQUEST_TIMEOUT_MS',
    ]);
    expect(configError({ KANDEV_HTTP_KEEP_ALIVE_TIMEOUT_MS: '0' }).variables).toEqual([
      'KANDEV_HTTP_KEEP_ALIVE_TIMEOUT_MS',
    ]);
  });

  test('task workspaces: <data dir>/workspaces by default; an absolute dir, two flags and a git timeout', () => {
    expect(loadConfig({ KANDEV_DATA_DIR: '/var/kandev' }).workspaces).toEqual({
      dir: '/var/kandev/workspaces',
      checkout: true,
      cleanupOnArchive: true,
      gitTimeoutMs: 300_000,
      gitEnv: {},
    });
    expect(loadConfig({}).workspaces.dir).toBe(resolve('./data/workspaces'));
    const set = loadConfig({
      KANDEV_WORKSPACES_DIR: '/srv/ws',
      KANDEV_WORKSPACE_CHECKOUT: 'false',
      KANDEV_WORKSPACE_CLEANUP_ON_ARCHIVE: 'false',
      KANDEV_WORKSPACE_GIT_TIMEOUT_MS: '1000',
    });
    expect(set.workspaces).toMatchObject({
      dir: '/srv/ws',
      checkout: false,
      cleanupOnArchive: false,
      gitTimeoutMs: 1000,
    });
    expect(loadConfig({ PATH: '/bin', GIT_DIR: '/elsewhere', HOME: '/h' }).workspaces.gitEnv).toEqual({
      PATH: '/bin',
      HOME: '/h',
    });
    expect(configError({ KANDEV_WORKSPACES_DIR: 'relative/ws' }).variables).toEqual(['KANDEV_WORKSPACES_DIR']);
    expect(configError({ KANDEV_WORKSPACE_CLEANUP_ON_ARCHIVE: 'yes' }).variables).toEqual([
      'KANDEV_WORKSPACE_CLEANUP_ON_ARCHIVE',
    ]);
  });

  test('every bad variable is named at once', () => {
    expect(configError({ KANDEV_HTTP_PORT: 'x', LOG_LEVEL: 'loud', KANDEV_AGENTCTL_TOKEN: 'short' }).variables).toEqual(
      ['KANDEV_AGENTCTL_TOKEN', 'KANDEV_HTTP_PORT', 'LOG_LEVEL'],
    );
  });
});

describe('parseHostList', () => {
  test.each([
    ['', []],
    ['a.example', ['a.example']],
    [' A.example , b.EXAMPLE,,a.example ', ['a.example', 'b.example']],
  ])('%j -> %j', (input, expected) => {
    expect(parseHostList(input)).toEqual(expected);
  });
});
