// Every executor delivers the identical launch config, for the docker executor: the same scenario set as
// conformance-executors, with each session's agentctl in its own container (run by .ci/run with the
// container engine; `npm test` without one prints that it skipped this), in plaintext on the published
// loopback port, over TLS and over mutual TLS (a docker profile whose certificates the test makes at run
// time). The test finds the container by its labels, as an operator would, and reads its control token
// from the backend's data dir.
import { readFileSync } from 'node:fs';
import type { AgentctlTls } from '@kandev/protocol';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';
import { type ConformanceTarget, describeConformance } from '../../helpers/conformance';
import {
  AGENTCTL_IMAGE,
  dockerHost,
  MANAGED,
  removeBackendContainersAfter,
  sessionContainer,
  waitForNoContainers,
} from '../../helpers/container-engine';
import { LiveApi } from '../../helpers/live-updates';
import { startBackend, tempDir } from '../../helpers/processes';
import { createTestPki } from '../../helpers/tls-certs';

type Transport = 'plaintext' | 'tls' | 'mtls';

/** The executor's env: the built-in docker executor, or a `secure` docker profile with TLS settings. */
async function dockerEnv(
  cleanup: Cleanup,
  transport: Transport,
): Promise<{ env: Record<string, string>; executor: string; tls?: AgentctlTls }> {
  if (transport === 'plaintext') return { env: { KANDEV_EXECUTORS: 'local,docker' }, executor: 'docker' };
  const pki = await createTestPki(cleanup);
  const mtls = transport === 'mtls';
  const tls = {
    ca: pki.caCert,
    agentctl_cert: pki.serverCert,
    agentctl_key: pki.serverKey,
    ...(mtls ? { cert: pki.clientCert, key: pki.clientKey, agentctl_client_ca: pki.caCert } : {}),
  };
  const profiles = { secure: { kind: 'docker', image: AGENTCTL_IMAGE, tls } };
  const ca = readFileSync(pki.caCert);
  return {
    env: { KANDEV_EXECUTORS: 'local', KANDEV_EXECUTOR_PROFILES: JSON.stringify(profiles) },
    executor: 'secure',
    tls: mtls ? { ca, cert: readFileSync(pki.clientCert), key: readFileSync(pki.clientKey) } : { ca },
  };
}

function docker(transport: Transport): ConformanceTarget {
  return {
    name: transport === 'plaintext' ? 'docker' : `docker (${transport})`,
    async start(cleanup) {
      const dataDir = tempDir(cleanup);
      removeBackendContainersAfter(cleanup, dataDir);
      const { env, executor, tls } = await dockerEnv(cleanup, transport);
      const backend = await startBackend(cleanup, {
        KANDEV_DATA_DIR: dataDir,
        KANDEV_DOCKER_IMAGE: AGENTCTL_IMAGE,
        DOCKER_HOST: dockerHost(),
        ...env,
      });
      return {
        api: new LiveApi(backend.ready.url, backend.apiToken),
        executor,
        agentctlOf: async (sessionId) => ({
          ...(await sessionContainer(dataDir, sessionId)),
          ...(tls === undefined ? {} : { tls }),
        }),
        expectReleased: (sessionId) =>
          waitForNoContainers([MANAGED, `dev.kandev.session-id=${sessionId}`], backend.logs),
        logs: backend.logs,
      };
    },
  };
}

describe.each([docker('plaintext'), docker('tls'), docker('mtls')])('executor conformance: $name', (target) => {
  const cleanup = useCleanup();
  describeConformance(target, cleanup);
});
