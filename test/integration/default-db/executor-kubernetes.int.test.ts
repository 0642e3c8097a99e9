// The kubernetes executor beyond conformance, on the loopback Kubernetes API server: where the control
// token lives (only in the pod's Secret), the calls it makes (only what deploy/kubernetes/base/rbac.yaml
// grants), a restarted backend adopting live pods and deleting those whose sessions are gone (never
// another deployment's), a pod that dies failing its session, and a bad profile refused at start.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useCleanup } from '../../helpers/cleanup';
import {
  expectNoPodOf,
  kubernetesProfile,
  NAMESPACE,
  PROFILE,
  podAccess,
  startKubernetesApiServer,
  startKubernetesBackend,
} from '../../helpers/kubernetes-executor';
import { LiveApi } from '../../helpers/live-updates';
import { connectMcp } from '../../helpers/mcp';
import { REPO_ROOT, startBackend, stopProcess, tempDir } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

const LABELS = {
  'dev.kandev.managed-by': 'kandev-kubernetes-executor',
  'dev.kandev.backend-id': 'kandev-test',
  'dev.kandev.executor': PROFILE,
};

/** The Role's rules as `resource:verb` (the Role is written one resource and one verb list per rule). */
function grantedByRole(): Set<string> {
  const text = readFileSync(join(REPO_ROOT, 'deploy/kubernetes/base/rbac.yaml'), 'utf8');
  const granted = new Set<string>();
  for (const m of text.matchAll(/resources: \[['"](\w+)['"]\]\s+verbs: \[([^\]]*)\]/g)) {
    for (const verb of (m[2] ?? '').matchAll(/['"](\w+)['"]/g)) granted.add(`${m[1]}:${verb[1]}`);
  }
  return granted;
}

describe('kubernetes executor', () => {
  const cleanup = useCleanup();

  async function setup(dataDir = tempDir(cleanup)) {
    const kube = await startKubernetesApiServer(cleanup, { namespace: NAMESPACE });
    const { profile } = await kubernetesProfile(cleanup, 'plaintext');
    const start = () =>
      startKubernetesBackend(cleanup, kube, profile, { KANDEV_DATA_DIR: dataDir, KANDEV_DEFAULT_EXECUTOR: PROFILE });
    const backend = await start();
    const api = new LiveApi(backend.ready.url, backend.apiToken);
    const workspaceId = await api.workspace();
    const task = async () => (await api.task(workspaceId, { title: 'k8s' })).id;
    return { kube, start, backend, api, task };
  }

  test('the control token is only in the Secret: not in the pod spec, logs, or REST answers; calls stay within the Role', async () => {
    const { kube, backend, api, task } = await setup();
    const session = await api.launch(await task());
    const access = await podAccess(kube, session.session_id, undefined, backend.logs);
    const token = access.controlToken;
    expect(token.length).toBeGreaterThanOrEqual(32);
    const pod = kube.pods().find((p) => p.metadata?.name === access.podName);
    expect(pod?.metadata?.labels).toMatchObject({ ...LABELS, 'dev.kandev.session-id': session.session_id });
    const container = pod?.spec?.containers[0];
    expect(container?.env).toContainEqual({ name: 'KANDEV_AGENTCTL_TOKEN_FILE', value: '/run/secrets/kandev/token' });
    expect(container?.volumeMounts).toContainEqual({
      name: 'kandev-secret',
      mountPath: '/run/secrets/kandev',
      readOnly: true,
    });
    expect(pod?.spec?.automountServiceAccountToken).toBe(false);
    // The Secret belongs to the pod: deleting the pod (by anyone) deletes the token with it.
    const secret = kube.secrets().find((s) => s.metadata?.name === access.podName);
    expect(secret?.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Pod', uid: pod?.metadata?.uid }),
    ]);

    const answers = [
      JSON.stringify(kube.pods()),
      ...kube.podAnswers,
      JSON.stringify((await api.request('GET', `/api/sessions/${session.session_id}`)).body),
      JSON.stringify((await api.request('GET', '/api/agentctl')).body),
      backend.logs(),
      kube.logsOf(access.podName),
    ];
    for (const text of answers) expect(text).not.toContain(token);

    const granted = grantedByRole();
    const used = new Set(kube.calls.map((c) => `${c.resource}:${c.verb}`));
    expect([...used].filter((call) => !granted.has(call))).toEqual([]);
    expect(kube.calls.every((c) => c.namespace === NAMESPACE)).toBe(true);
    expect(kube.unexpected).toEqual([]);
  });

  test('a restarted backend adopts live pods and deletes those of gone sessions, never another deployment’s', async () => {
    const { kube, start, backend, api, task } = await setup();
    const live = await api.launch(await task());
    const stopped = await api.launch(await task());
    const livePod = (await podAccess(kube, live.session_id, undefined, backend.logs)).podName;
    const stoppedPod = (await podAccess(kube, stopped.session_id, undefined, backend.logs)).podName;
    expect((await api.stopSession(stopped.session_id)).status).toBe(200);
    await expectNoPodOf(kube, stopped.session_id, backend.logs);
    // A graceful stop leaves the pods (a rolling update must not end sessions).
    await stopProcess(backend.child);
    expect(kube.pods().map((p) => p.metadata?.name)).toEqual([livePod]);

    // What a crash can leave: a pod of the session stopped meanwhile, one of a session the database never
    // had; and a pod of another deployment (another backend id) in the same namespace.
    const leftover = (name: string, labels: Record<string, string>) =>
      kube.inject({ metadata: { name, labels }, spec: { containers: [{ name: 'agentctl', image: 'x' }] } });
    leftover('gone-stopped', { ...LABELS, 'dev.kandev.session-id': stopped.session_id });
    leftover('gone-unknown', { ...LABELS, 'dev.kandev.session-id': '00000000-0000-4000-8000-000000000000' });
    leftover('other-deployment', {
      ...LABELS,
      'dev.kandev.backend-id': 'someone-else',
      'dev.kandev.session-id': live.session_id,
    });
    const creates = kube.calls.filter((c) => c.verb === 'create' && c.resource === 'pods').length;

    const restarted = await start();
    const names = kube.pods().map((p) => p.metadata?.name);
    expect(names.sort()).toEqual([livePod, 'other-deployment'].sort());
    expect(names).not.toContain(stoppedPod);
    const api2 = new LiveApi(restarted.ready.url, restarted.apiToken);
    expect((await api2.session(live.session_id)).state).toBe('waiting_for_input');
    // The same pod serves the session through the restarted backend: nothing was created.
    const mcp = await connectMcp(cleanup, live.mcp_url, live.mcp_token);
    expect((await mcp.toolNames()).length).toBeGreaterThan(0);
    expect(kube.calls.filter((c) => c.verb === 'create' && c.resource === 'pods').length).toBe(creates);
    expect(restarted.logs()).toContain('adopted an agentctl pod');

    expect((await api2.stopSession(live.session_id)).status).toBe(200);
    await expectNoPodOf(kube, live.session_id, restarted.logs);
    expect(kube.pods().map((p) => p.metadata?.name)).toEqual(['other-deployment']);
  });

  test('a pod that dies fails its session with the reason; its pod and Secret are deleted', async () => {
    const { kube, backend, api, task } = await setup();
    const session = await api.launch(await task());
    const { podName } = await podAccess(kube, session.session_id, undefined, backend.logs);
    kube.crash(podName);
    const failed = await waitUntil(
      async () => {
        const body = await api.session(session.session_id);
        return body.state === 'failed' ? body : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 100, logs: backend.logs, what: 'the session to fail' },
    );
    expect(failed.last_error).toMatch(/agentctl pod ended/);
    await expectNoPodOf(kube, session.session_id, backend.logs);
  });

  test('a bad kubernetes profile stops the start with the fields that are wrong, and calls nothing', async () => {
    const kube = await startKubernetesApiServer(cleanup, { namespace: NAMESPACE });
    const profile = {
      kind: 'kubernetes',
      namespace: 'Not_A_Namespace',
      grpc_port: 0,
      resources: { limits: { cpu: 'lots' } },
    };
    const started = startBackend(cleanup, {
      KANDEV_EXECUTOR_PROFILES: JSON.stringify({ [PROFILE]: profile }),
      KUBECONFIG: kube.kubeconfig,
    });
    const error = await started.then(
      () => undefined,
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    expect(error).toContain('KANDEV_EXECUTOR_PROFILES.cluster.namespace');
    expect(error).toContain('KANDEV_EXECUTOR_PROFILES.cluster.grpc_port');
    expect(error).toContain('KANDEV_EXECUTOR_PROFILES.cluster.resources.limits.cpu');
    expect(kube.calls).toEqual([]);

    const insecure = { kind: 'kubernetes' };
    const refused = await startBackend(cleanup, {
      KANDEV_EXECUTOR_PROFILES: JSON.stringify({ [PROFILE]: insecure }),
      KUBECONFIG: kube.kubeconfig,
    }).then(
      () => undefined,
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    expect(refused).toContain(
      'KANDEV_EXECUTOR_PROFILES.cluster.tls (or KANDEV_EXECUTOR_PROFILES.cluster.insecure: true)',
    );
  });
});
