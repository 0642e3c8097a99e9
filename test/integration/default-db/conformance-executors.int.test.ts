// Every executor delivers the identical launch config, for the executors that need no container engine:
// the same scenario set (see helpers/conformance.ts) against the local executor and the remote executor
// (a standalone agentctl the backend only dials), the remote one over TLS, over mutual TLS and
// (declared) plaintext. The docker executor runs the same set in conformance-docker.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentctlClient } from '@kandev/backend/testing';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';
import { type AgentctlAccess, type ConformanceTarget, describeConformance } from '../../helpers/conformance';
import { LiveApi } from '../../helpers/live-updates';
import { startAgentctl, startBackend, TEST_CONTROL_TOKEN, tempDir } from '../../helpers/processes';
import { createTestPki, type TestPki } from '../../helpers/tls-certs';

/** Local and remote keep their agentctl after a stop: the session is gone from it. */
async function expectNotHeld(access: AgentctlAccess, sessionId: string): Promise<void> {
  const client = new AgentctlClient({ ...access, mcpBaseUrl: 'http://unused' }, 5_000);
  try {
    await expect(client.getSession(sessionId)).rejects.toMatchObject({ code: 'not_found' });
  } finally {
    client.close();
  }
}

const local: ConformanceTarget = {
  name: 'local',
  async start(cleanup) {
    const backend = await startBackend(cleanup, { KANDEV_AGENTCTL_TOKEN: TEST_CONTROL_TOKEN });
    const access = { grpcAddress: backend.ready.agentctl.grpcAddress, controlToken: TEST_CONTROL_TOKEN };
    return {
      api: new LiveApi(backend.ready.url, backend.apiToken),
      executor: 'local',
      agentctlOf: () => Promise.resolve(access),
      expectReleased: (sessionId) => expectNotHeld(access, sessionId),
      logs: backend.logs,
    };
  },
};

type RemoteTransport = 'plaintext' | 'tls' | 'mtls';

/** agentctl's TLS variables, and what the test (like the backend) verifies it with. */
function agentctlTlsEnv(pki: TestPki, transport: RemoteTransport): Record<string, string> {
  if (transport === 'plaintext') return {};
  return {
    KANDEV_AGENTCTL_TLS_CERT: pki.serverCert,
    KANDEV_AGENTCTL_TLS_KEY: pki.serverKey,
    ...(transport === 'mtls' ? { KANDEV_AGENTCTL_TLS_CLIENT_CA: pki.caCert } : {}),
  };
}

function accessTls(pki: TestPki, transport: RemoteTransport): AgentctlAccess['tls'] {
  if (transport === 'plaintext') return undefined;
  const ca = readFileSync(pki.caCert);
  if (transport === 'tls') return { ca };
  return { ca, cert: readFileSync(pki.clientCert), key: readFileSync(pki.clientKey), serverName: 'agentctl.test' };
}

/**
 * The backend's remote settings: TLS through the KANDEV_REMOTE_AGENTCTL_* variables, mutual TLS through
 * a named profile (with a server name to verify), plaintext only with the explicit insecure flag.
 */
function remoteBackendEnv(
  pki: TestPki,
  transport: RemoteTransport,
  remote: { address: string; mcpUrl: string; tokenFile: string },
): { env: Record<string, string>; executor: string } {
  if (transport === 'mtls') {
    const profile = {
      kind: 'remote',
      address: remote.address,
      mcp_url: remote.mcpUrl,
      token_file: remote.tokenFile,
      tls: { ca: pki.caCert, cert: pki.clientCert, key: pki.clientKey, server_name: 'agentctl.test' },
    };
    const env = { KANDEV_EXECUTORS: 'local', KANDEV_EXECUTOR_PROFILES: JSON.stringify({ 'build-host': profile }) };
    return { env: { ...env, KANDEV_DEFAULT_EXECUTOR: 'build-host' }, executor: 'build-host' };
  }
  return {
    executor: 'remote',
    env: {
      KANDEV_EXECUTORS: 'remote',
      KANDEV_REMOTE_AGENTCTL_ADDRESS: remote.address,
      KANDEV_REMOTE_AGENTCTL_MCP_URL: remote.mcpUrl,
      KANDEV_REMOTE_AGENTCTL_TOKEN_FILE: remote.tokenFile,
      ...(transport === 'tls'
        ? { KANDEV_REMOTE_AGENTCTL_TLS_CA: pki.caCert }
        : { KANDEV_REMOTE_AGENTCTL_INSECURE: 'true' }),
    },
  };
}

function remote(transport: RemoteTransport): ConformanceTarget {
  return {
    name: `remote (${transport})`,
    async start(cleanup: Cleanup) {
      const pki = await createTestPki(cleanup);
      const agentctl = await startAgentctl(cleanup, agentctlTlsEnv(pki, transport));
      expect(agentctl.ready.grpcTransport).toBe(transport);
      const tokenFile = join(tempDir(cleanup), 'agentctl.token');
      writeFileSync(tokenFile, `${TEST_CONTROL_TOKEN}\n`, { mode: 0o600 });
      const tls = accessTls(pki, transport);
      const access: AgentctlAccess = {
        grpcAddress: `127.0.0.1:${agentctl.ready.grpcPort}`,
        controlToken: TEST_CONTROL_TOKEN,
        ...(tls === undefined ? {} : { tls }),
      };
      const mcpUrl = `http://127.0.0.1:${agentctl.ready.mcpPort}`;
      const { env, executor } = remoteBackendEnv(pki, transport, { address: access.grpcAddress, mcpUrl, tokenFile });
      const backend = await startBackend(cleanup, env);
      // Remote only (plaintext, tls): the backend starts no agentctl of its own.
      if (env.KANDEV_EXECUTORS === 'remote') expect(backend.ready.agentctl.pid).toBeNull();
      if (transport === 'plaintext') expect(backend.logs()).toContain('insecure: true');
      return {
        api: new LiveApi(backend.ready.url, backend.apiToken),
        executor,
        agentctlOf: () => Promise.resolve(access),
        expectReleased: (sessionId) => expectNotHeld(access, sessionId),
        logs: () => `${backend.logs()}\n--- agentctl ---\n${agentctl.logs()}`,
      };
    },
  };
}

describe.each([local, remote('tls'), remote('mtls'), remote('plaintext')])('executor conformance: $name', (target) => {
  const cleanup = useCleanup();
  describeConformance(target, cleanup);
});
