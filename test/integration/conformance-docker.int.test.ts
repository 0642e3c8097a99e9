// Invariant 9 for the docker executor: the same scenario set as conformance-executors, with each
// session's agentctl in its own container (run by .ci/run with the container engine; `npm test`
// without one prints that it skipped this). The test finds the container by its labels, as an operator
// would, and reads its control token from the backend's data dir.
import { useCleanup } from '../helpers/cleanup';
import { type ConformanceTarget, describeConformance } from '../helpers/conformance';
import {
  AGENTCTL_IMAGE,
  dockerHost,
  MANAGED,
  removeBackendContainersAfter,
  sessionContainer,
  waitForNoContainers,
} from '../helpers/container-engine';
import { LiveApi } from '../helpers/live-updates';
import { startBackend, tempDir } from '../helpers/processes';

export const docker: ConformanceTarget = {
  name: 'docker',
  async start(cleanup) {
    const dataDir = tempDir(cleanup);
    removeBackendContainersAfter(cleanup, dataDir);
    const backend = await startBackend(cleanup, {
      KANDEV_DATA_DIR: dataDir,
      KANDEV_EXECUTORS: 'local,docker',
      KANDEV_DOCKER_IMAGE: AGENTCTL_IMAGE,
      DOCKER_HOST: dockerHost(),
    });
    return {
      api: new LiveApi(backend.ready.url, backend.apiToken),
      executor: 'docker',
      agentctlOf: (sessionId) => sessionContainer(dataDir, sessionId),
      expectReleased: (sessionId) => waitForNoContainers([MANAGED, `dev.kandev.session-id=${sessionId}`], backend.logs),
      logs: backend.logs,
    };
  },
};

describe('executor conformance: docker', () => {
  const cleanup = useCleanup();
  describeConformance(docker, cleanup);
});
