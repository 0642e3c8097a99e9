// Every executor delivers the identical launch config, for the kubernetes executor: the same scenario
// set as conformance-executors, with each session's agentctl in its own pod, on the loopback Kubernetes
// API server (helpers/kubernetes-api-server.ts: no cluster can run here, so it runs each pod's agentctl
// as a real child process on the pod's own loopback IP). Plaintext (declared `insecure: true`), TLS and
// mutual TLS. The test finds the pod by its labels and reads its token from its Secret, as an operator
// would.
import { useCleanup } from '../../helpers/cleanup';
import { type ConformanceTarget, describeConformance } from '../../helpers/conformance';
import {
  expectNoPodOf,
  type KubeTransport,
  kubernetesProfile,
  NAMESPACE,
  PROFILE,
  podAccess,
  startKubernetesApiServer,
  startKubernetesBackend,
} from '../../helpers/kubernetes-executor';
import { LiveApi } from '../../helpers/live-updates';

function kubernetes(transport: KubeTransport): ConformanceTarget {
  return {
    name: `kubernetes (${transport})`,
    async start(cleanup) {
      const kube = await startKubernetesApiServer(cleanup, { namespace: NAMESPACE });
      const { profile, tls } = await kubernetesProfile(cleanup, transport);
      const backend = await startKubernetesBackend(cleanup, kube, profile);
      const logs = () => `${backend.logs()}\n--- kubernetes calls ---\n${JSON.stringify(kube.calls)}`;
      return {
        api: new LiveApi(backend.ready.url, backend.apiToken),
        executor: PROFILE,
        agentctlOf: (sessionId) => podAccess(kube, sessionId, tls, logs),
        expectReleased: async (sessionId) => {
          await expectNoPodOf(kube, sessionId, logs);
          expect(kube.unexpected).toEqual([]);
        },
        logs,
      };
    },
  };
}

describe.each([kubernetes('plaintext'), kubernetes('tls'), kubernetes('mtls')])(
  'executor conformance: $name',
  (target) => {
    const cleanup = useCleanup();
    describeConformance(target, cleanup);
  },
);
