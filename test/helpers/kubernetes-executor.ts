// A backend whose `cluster` executor profile is kind "kubernetes", on the loopback API server
// (helpers/kubernetes-api-server.ts): what the kubernetes conformance and executor tests share.
import { readFileSync } from 'node:fs';
import type { AgentctlTls } from '@kandev/protocol';
import type { Cleanup } from './cleanup';
import type { AgentctlAccess } from './conformance';
import { type KubernetesApiServer, startKubernetesApiServer } from './kubernetes-api-server';
import { startBackend } from './processes';
import { createTestPki } from './tls-certs';
import { waitUntil } from './wait';

export type KubeTransport = 'plaintext' | 'tls' | 'mtls';
export const NAMESPACE = 'kandev-test';
export const PROFILE = 'cluster';
/** The profile's backend_id: the label every pod of this (test) deployment carries. */
export const BACKEND_ID = 'kandev-test';
/** Fixed container ports, like a cluster's: every pod has its own loopback IP. */
export const GRPC_PORT = 17421;

/** The profile, and how the test (like the backend) verifies a pod's agentctl. */
export async function kubernetesProfile(
  cleanup: Cleanup,
  transport: KubeTransport,
  extra: Record<string, unknown> = {},
): Promise<{ profile: Record<string, unknown>; tls: AgentctlTls | undefined }> {
  const base = {
    kind: 'kubernetes',
    namespace: NAMESPACE,
    backend_id: BACKEND_ID,
    grpc_port: GRPC_PORT,
    mcp_port: 17422,
    ...extra,
  };
  if (transport === 'plaintext') return { profile: { ...base, insecure: true }, tls: undefined };
  const pki = await createTestPki(cleanup);
  const mtls = transport === 'mtls';
  const tls = {
    ca: pki.caCert,
    server_name: 'agentctl.test',
    agentctl_cert: pki.serverCert,
    agentctl_key: pki.serverKey,
    ...(mtls ? { cert: pki.clientCert, key: pki.clientKey, agentctl_client_ca: pki.caCert } : {}),
  };
  const ca = readFileSync(pki.caCert);
  const client = mtls ? { ca, cert: readFileSync(pki.clientCert), key: readFileSync(pki.clientKey) } : { ca };
  return { profile: { ...base, tls }, tls: { ...client, serverName: 'agentctl.test' } };
}

export function startKubernetesBackend(
  cleanup: Cleanup,
  kube: KubernetesApiServer,
  profile: Record<string, unknown>,
  env: Record<string, string> = {},
) {
  return startBackend(cleanup, {
    KANDEV_EXECUTOR_PROFILES: JSON.stringify({ [PROFILE]: profile }),
    KUBECONFIG: kube.kubeconfig,
    ...env,
  });
}

/** The session's running pod, as an operator finds it (`kubectl get pods -l …`, the token from its Secret). */
export async function podAccess(
  kube: KubernetesApiServer,
  sessionId: string,
  tls: AgentctlTls | undefined,
  logs: () => string,
): Promise<AgentctlAccess & { podName: string }> {
  const pod = await waitUntil(() => kube.podOfSession(sessionId), { timeoutMs: 10_000, logs, what: 'the running pod' });
  const podName = pod.metadata?.name ?? '';
  const controlToken = kube.tokenOf(podName) ?? '';
  return {
    podName,
    grpcAddress: `${pod.status?.podIP}:${GRPC_PORT}`,
    controlToken,
    ...(tls === undefined ? {} : { tls }),
  };
}

/** After a stop: no pod and no Secret of the session is left (in this deployment). */
export async function expectNoPodOf(kube: KubernetesApiServer, sessionId: string, logs: () => string): Promise<void> {
  const ofSession = (labels: Record<string, string> | undefined) =>
    labels?.['dev.kandev.session-id'] === sessionId && labels['dev.kandev.backend-id'] === BACKEND_ID;
  await waitUntil(
    () =>
      !kube.pods().some((p) => ofSession(p.metadata?.labels)) &&
      !kube.secrets().some((s) => ofSession(s.metadata?.labels)),
    { timeoutMs: 10_000, logs, what: `the pod and Secret of ${sessionId} to be deleted` },
  );
}

export { startKubernetesApiServer };
