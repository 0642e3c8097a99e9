// Invariant 9 for the executors that need no container engine: the same scenario set (see
// helpers/conformance.ts) against the local executor and the remote executor (a standalone agentctl
// the backend only dials). The docker executor runs the same set in conformance-docker.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentctlClient } from '../../packages/backend/src/executors/agentctl-client';
import { useCleanup } from '../helpers/cleanup';
import { type AgentctlAccess, type ConformanceTarget, describeConformance } from '../helpers/conformance';
import { LiveApi } from '../helpers/live-updates';
import { startAgentctl, startBackend, TEST_CONTROL_TOKEN, tempDir } from '../helpers/processes';

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

const remote: ConformanceTarget = {
  name: 'remote',
  async start(cleanup) {
    const agentctl = await startAgentctl(cleanup);
    const tokenFile = join(tempDir(cleanup), 'agentctl.token');
    writeFileSync(tokenFile, `${TEST_CONTROL_TOKEN}\n`, { mode: 0o600 });
    const access = { grpcAddress: `127.0.0.1:${agentctl.ready.grpcPort}`, controlToken: TEST_CONTROL_TOKEN };
    // Remote only: the backend starts no agentctl of its own.
    const backend = await startBackend(cleanup, {
      KANDEV_EXECUTORS: 'remote',
      KANDEV_REMOTE_AGENTCTL_ADDRESS: access.grpcAddress,
      KANDEV_REMOTE_AGENTCTL_MCP_URL: `http://127.0.0.1:${agentctl.ready.mcpPort}`,
      KANDEV_REMOTE_AGENTCTL_TOKEN_FILE: tokenFile,
    });
    expect(backend.ready.agentctl.pid).toBeNull();
    return {
      api: new LiveApi(backend.ready.url, backend.apiToken),
      executor: 'remote',
      agentctlOf: () => Promise.resolve(access),
      expectReleased: (sessionId) => expectNotHeld(access, sessionId),
      logs: () => `${backend.logs()}\n--- agentctl ---\n${agentctl.logs()}`,
    };
  },
};

describe.each([local, remote])('executor conformance: $name', (target) => {
  const cleanup = useCleanup();
  describeConformance(target, cleanup);
});
