import { ExecutorConfigError, parseExecutorsConfig } from './executor-config';

// TLS settings of remote and docker executors: PEM files read once at start, every mistake named.
const TOKEN = 'remote-control-token-0123456789abcdef-xyz';
const CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n';
const FILES: Record<string, string> = {
  '/pki/ca.pem': CERT,
  '/pki/client.pem': CERT,
  '/pki/client-key.pem': KEY,
  '/pki/agentctl.pem': CERT,
  '/pki/agentctl-key.pem': KEY,
};
const readText = (path: string): string => {
  const text = FILES[path];
  if (text === undefined) throw new Error(`ENOENT ${path}`);
  return text;
};
const REMOTE = {
  KANDEV_EXECUTORS: 'remote',
  KANDEV_REMOTE_AGENTCTL_ADDRESS: 'agentctl:7421',
  KANDEV_REMOTE_AGENTCTL_MCP_URL: 'http://127.0.0.1:7422',
  KANDEV_REMOTE_AGENTCTL_TOKEN: TOKEN,
};
const remoteProfile = (fields: Record<string, unknown>) => ({
  KANDEV_EXECUTOR_PROFILES: JSON.stringify({
    'build-host': {
      kind: 'remote',
      address: '10.0.0.8:7421',
      mcp_url: 'http://10.0.0.8:7422',
      token: TOKEN,
      ...fields,
    },
  }),
});
const dockerProfile = (tls: Record<string, unknown>) => ({
  KANDEV_EXECUTOR_PROFILES: JSON.stringify({ sandbox: { kind: 'docker', tls } }),
});

function variables(env: Record<string, string>): string[] {
  try {
    parseExecutorsConfig(env, readText);
  } catch (error) {
    if (error instanceof ExecutorConfigError) return error.variables;
    throw error;
  }
  throw new Error('expected an ExecutorConfigError');
}

describe('executor TLS settings', () => {
  test('remote from the environment: CA, client pair and server name, read as PEM contents', () => {
    const config = parseExecutorsConfig(
      {
        ...REMOTE,
        KANDEV_REMOTE_AGENTCTL_TLS_CA: '/pki/ca.pem',
        KANDEV_REMOTE_AGENTCTL_TLS_CERT: '/pki/client.pem',
        KANDEV_REMOTE_AGENTCTL_TLS_KEY: '/pki/client-key.pem',
        KANDEV_REMOTE_AGENTCTL_TLS_SERVER_NAME: 'agentctl.internal',
      },
      readText,
    );
    expect(config.entries[0]).toMatchObject({
      kind: 'remote',
      tls: { ca: Buffer.from(CERT), cert: Buffer.from(CERT), key: Buffer.from(KEY), serverName: 'agentctl.internal' },
    });
  });

  test('a remote profile with a CA only (server-side TLS), and one that declares insecure', () => {
    const tls = parseExecutorsConfig(remoteProfile({ tls: { ca: '/pki/ca.pem' } }), readText).entries[1];
    expect(tls).toMatchObject({ kind: 'remote', tls: { ca: Buffer.from(CERT) } });
    expect(tls?.kind === 'remote' && tls.tls?.cert).toBeFalsy();
    const plain = parseExecutorsConfig(remoteProfile({ insecure: true }), readText).entries[1];
    expect(plain).toMatchObject({ kind: 'remote', tls: undefined });
  });

  test('a docker profile: the client side and what each container serves with', () => {
    const config = parseExecutorsConfig(
      dockerProfile({
        ca: '/pki/ca.pem',
        cert: '/pki/client.pem',
        key: '/pki/client-key.pem',
        agentctl_cert: '/pki/agentctl.pem',
        agentctl_key: '/pki/agentctl-key.pem',
        agentctl_client_ca: '/pki/ca.pem',
      }),
      readText,
    );
    expect(config.entries[1]).toMatchObject({
      kind: 'docker',
      tls: {
        client: { ca: Buffer.from(CERT), cert: Buffer.from(CERT), key: Buffer.from(KEY) },
        server: { cert: CERT, key: KEY, clientCa: CERT },
      },
    });
  });

  test.each<[string, Record<string, string>, string[]]>([
    [
      'remote with neither TLS nor insecure',
      REMOTE,
      ['KANDEV_REMOTE_AGENTCTL_TLS_CA (or KANDEV_REMOTE_AGENTCTL_INSECURE=true)'],
    ],
    [
      'remote with TLS and insecure',
      { ...REMOTE, KANDEV_REMOTE_AGENTCTL_TLS_CA: '/pki/ca.pem', KANDEV_REMOTE_AGENTCTL_INSECURE: 'true' },
      ['KANDEV_REMOTE_AGENTCTL_TLS_CA and KANDEV_REMOTE_AGENTCTL_INSECURE=true (not both)'],
    ],
    [
      'a client cert without its key',
      { ...REMOTE, KANDEV_REMOTE_AGENTCTL_TLS_CA: '/pki/ca.pem', KANDEV_REMOTE_AGENTCTL_TLS_CERT: '/pki/client.pem' },
      ['KANDEV_REMOTE_AGENTCTL_TLS_CERT and KANDEV_REMOTE_AGENTCTL_TLS_KEY (both or neither)'],
    ],
    [
      'a client pair without a CA',
      {
        ...REMOTE,
        KANDEV_REMOTE_AGENTCTL_INSECURE: 'true',
        KANDEV_REMOTE_AGENTCTL_TLS_CERT: '/pki/client.pem',
        KANDEV_REMOTE_AGENTCTL_TLS_KEY: '/pki/client-key.pem',
      },
      ['KANDEV_REMOTE_AGENTCTL_TLS_CA (needed by CERT, KEY)'],
    ],
    [
      'an unreadable CA file',
      { ...REMOTE, KANDEV_REMOTE_AGENTCTL_TLS_CA: '/pki/missing.pem' },
      ['KANDEV_REMOTE_AGENTCTL_TLS_CA (cannot read the file)'],
    ],
    [
      'a key given as the CA',
      { ...REMOTE, KANDEV_REMOTE_AGENTCTL_TLS_CA: '/pki/client-key.pem' },
      ['KANDEV_REMOTE_AGENTCTL_TLS_CA (not a PEM file of the expected kind)'],
    ],
    [
      'a remote profile with neither TLS nor insecure',
      remoteProfile({}),
      ['KANDEV_EXECUTOR_PROFILES.build-host.tls.ca (or KANDEV_EXECUTOR_PROFILES.build-host.insecure: true)'],
    ],
    [
      'a remote profile that says insecure: false',
      remoteProfile({ insecure: false }),
      ['KANDEV_EXECUTOR_PROFILES.build-host.tls.ca (or KANDEV_EXECUTOR_PROFILES.build-host.insecure: true)'],
    ],
    [
      'a docker profile whose agentctl asks for client certs the backend lacks',
      dockerProfile({
        ca: '/pki/ca.pem',
        agentctl_cert: '/pki/agentctl.pem',
        agentctl_key: '/pki/agentctl-key.pem',
        agentctl_client_ca: '/pki/ca.pem',
      }),
      [
        'KANDEV_EXECUTOR_PROFILES.sandbox.tls.agentctl_client_ca (needs KANDEV_EXECUTOR_PROFILES.sandbox.tls.cert and KANDEV_EXECUTOR_PROFILES.sandbox.tls.key)',
      ],
    ],
    [
      'a docker profile TLS without agentctl’s certificate',
      dockerProfile({ ca: '/pki/ca.pem' }),
      ['KANDEV_EXECUTOR_PROFILES'],
    ],
  ])('%s is refused, naming the settings', (_name, env, expected) => {
    expect(variables(env)).toEqual(expected);
  });
});
