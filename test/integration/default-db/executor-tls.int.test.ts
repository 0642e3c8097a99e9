// TLS refusals on the way to a remote agentctl: a wrong CA and a missing client certificate fail the
// launch at once with a clear 503 naming the agentctl (never a hang), and a remote profile that
// neither has TLS nor says `insecure: true` is a configuration error.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';
import { LiveApi } from '../../helpers/live-updates';
import { BACKEND_MAIN, startAgentctl, startBackend, TEST_CONTROL_TOKEN, tempDir } from '../../helpers/processes';
import { createTestPki } from '../../helpers/tls-certs';

function tokenFile(cleanup: Cleanup): string {
  const path = join(tempDir(cleanup), 'agentctl.token');
  writeFileSync(path, TEST_CONTROL_TOKEN, { mode: 0o600 });
  return path;
}

/** A backend whose only executor is a remote profile with these TLS settings, and a task to launch. */
async function backendWithProfile(cleanup: Cleanup, grpcPort: number, tls: Record<string, string>) {
  const profile = {
    kind: 'remote',
    address: `127.0.0.1:${grpcPort}`,
    mcp_url: 'http://127.0.0.1:1',
    token_file: tokenFile(cleanup),
    tls,
  };
  const backend = await startBackend(cleanup, {
    KANDEV_EXECUTOR_PROFILES: JSON.stringify({ 'build-host': profile }),
  });
  const api = new LiveApi(backend.ready.url, backend.apiToken);
  const task = await api.task(await api.workspace(), { title: 'tls' });
  return { api, task, backend };
}

async function expectTlsRefusal(api: LiveApi, taskId: string, address: string, what: string): Promise<void> {
  const reply = await api.request<{ error: { code: string; message: string } }>(
    'POST',
    `/api/tasks/${taskId}/sessions`,
    { executor: 'build-host' },
  );
  expect(reply).toMatchObject({ status: 503 });
  expect(reply.body.error.code).toBe('unavailable');
  expect(reply.body.error.message).toContain(`TLS verification failed against agentctl at ${address}: ${what}`);
}

describe('TLS to a remote agentctl', () => {
  const cleanup = useCleanup();
  test('a CA that did not sign agentctl’s certificate fails the launch with a clear 503', async () => {
    const [pki, otherPki] = await Promise.all([createTestPki(cleanup), createTestPki(cleanup, 'stranger')]);
    const agentctl = await startAgentctl(cleanup, {
      KANDEV_AGENTCTL_TLS_CERT: pki.serverCert,
      KANDEV_AGENTCTL_TLS_KEY: pki.serverKey,
    });
    const { api, task } = await backendWithProfile(cleanup, agentctl.ready.grpcPort, { ca: otherPki.caCert });
    const address = `127.0.0.1:${agentctl.ready.grpcPort}`;
    await expectTlsRefusal(api, task.id, address, "agentctl's certificate is not signed by the configured CA");
  });

  test('mutual TLS: a backend without a client certificate is refused with a clear 503', async () => {
    const pki = await createTestPki(cleanup);
    const agentctl = await startAgentctl(cleanup, {
      KANDEV_AGENTCTL_TLS_CERT: pki.serverCert,
      KANDEV_AGENTCTL_TLS_KEY: pki.serverKey,
      KANDEV_AGENTCTL_TLS_CLIENT_CA: pki.caCert,
    });
    expect(agentctl.ready.grpcTransport).toBe('mtls');
    const { api, task } = await backendWithProfile(cleanup, agentctl.ready.grpcPort, { ca: pki.caCert });
    const address = `127.0.0.1:${agentctl.ready.grpcPort}`;
    await expectTlsRefusal(api, task.id, address, 'agentctl requires a client certificate (mutual TLS)');
  });

  test('a remote profile with neither tls nor insecure: true is a configuration error (exit 2)', async () => {
    const profile = { kind: 'remote', address: '10.0.0.8:7421', mcp_url: 'http://10.0.0.8:7422', token_file: 'x' };
    const child = spawn(process.execPath, [BACKEND_MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        KANDEV_DATA_DIR: tempDir(cleanup),
        KANDEV_HTTP_PORT: '0',
        KANDEV_EXECUTOR_PROFILES: JSON.stringify({ 'build-host': { ...profile, token_file: tokenFile(cleanup) } }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code).toBe(2);
    expect(stderr).toBe(
      'backend: invalid configuration: KANDEV_EXECUTOR_PROFILES.build-host.tls.ca (or KANDEV_EXECUTOR_PROFILES.build-host.insecure: true)\n',
    );
  });
});
