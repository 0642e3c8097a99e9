import type { KubernetesEntry } from './kubernetes-config';
import { labelSelector, podCondition, podSpec, secretSpec, subPathOf, workspaceMounts } from './kubernetes-pod-spec';

const PROFILE: KubernetesEntry = {
  name: 'cluster',
  kind: 'kubernetes',
  image: 'kandev/agentctl:dev',
  namespace: 'kandev',
  serviceAccount: 'kandev-agentctl',
  backendId: 'kandev',
  grpcPort: 7421,
  mcpPort: 7422,
  workspacesClaim: 'kandev-workspaces',
  resources: undefined,
  imagePullPolicy: undefined,
  nodeSelector: undefined,
  runAsUser: 999,
  runAsGroup: 999,
  startTimeoutMs: 1_000,
  tls: undefined,
};
const SESSION = '6f1d2c3b-0000-4000-8000-000000000001';
const INPUT = {
  profile: PROFILE,
  backendId: 'kandev',
  name: 'kandev-agentctl-6f1d2c3b-abcdef012345',
  sessionId: SESSION,
  agentctlId: 'abcdef012345',
  logLevel: 'info',
  toolCallTimeoutMs: undefined,
  workspacesDir: '/workspaces',
  workspace: { hostPath: '/workspaces/task-1', gitDirs: ['/workspaces/.sources/repo/.git', '/srv/repo/.git'] },
};
const TOKEN = 'a-control-token-0123456789abcdef0123456789';

describe('kubernetes pod spec', () => {
  test('the token is only in the Secret; the pod mounts it read-only and names the file', () => {
    const pod = podSpec(INPUT, undefined);
    expect(JSON.stringify(pod)).not.toContain(TOKEN);
    const secret = secretSpec(INPUT, TOKEN, undefined);
    expect(Buffer.from(secret.data?.token ?? '', 'base64').toString()).toBe(TOKEN);
    const container = pod.spec?.containers[0];
    expect(container?.env).toContainEqual({ name: 'KANDEV_AGENTCTL_TOKEN_FILE', value: '/run/secrets/kandev/token' });
    expect(container?.volumeMounts?.[0]).toEqual({
      name: 'kandev-secret',
      mountPath: '/run/secrets/kandev',
      readOnly: true,
    });
    expect(pod.spec).toMatchObject({
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      serviceAccountName: 'kandev-agentctl',
      securityContext: { runAsUser: 999, runAsGroup: 999 },
    });
    expect(pod.metadata?.labels).toEqual({
      'dev.kandev.managed-by': 'kandev-kubernetes-executor',
      'dev.kandev.backend-id': 'kandev',
      'dev.kandev.executor': 'cluster',
      'dev.kandev.session-id': SESSION,
      'dev.kandev.agentctl-id': 'abcdef012345',
    });
  });

  test('with TLS, the Secret carries the certificate, key and client CA, and the env points at them', () => {
    const tls = { cert: 'CERT', key: 'KEY', clientCa: 'CA' };
    const secret = secretSpec(INPUT, TOKEN, tls);
    expect(Object.keys(secret.data ?? {}).sort()).toEqual([
      'tls-cert.pem',
      'tls-client-ca.pem',
      'tls-key.pem',
      'token',
    ]);
    expect(podSpec(INPUT, tls).spec?.containers[0]?.env).toEqual(
      expect.arrayContaining([
        { name: 'KANDEV_AGENTCTL_TLS_CERT', value: '/run/secrets/kandev/tls-cert.pem' },
        { name: 'KANDEV_AGENTCTL_TLS_CLIENT_CA', value: '/run/secrets/kandev/tls-client-ca.pem' },
      ]),
    );
  });

  test('the workspace: the claim at the task sub path on /workspace, git dirs on the claim at their own paths', () => {
    expect(workspaceMounts(INPUT)).toEqual({
      volumes: [{ name: 'workspace', persistentVolumeClaim: { claimName: 'kandev-workspaces' } }],
      mounts: [
        { name: 'workspace', mountPath: '/workspace', subPath: 'task-1' },
        { name: 'workspace', mountPath: '/workspaces/.sources/repo/.git', subPath: '.sources/repo/.git' },
      ],
      unreachable: ['/srv/repo/.git'],
    });
    expect(workspaceMounts({ ...INPUT, profile: { ...PROFILE, workspacesClaim: undefined } }).mounts).toEqual([]);
    expect(subPathOf('/workspaces', '/workspaces')).toBeUndefined();
    expect(subPathOf('/workspaces', '/workspaces-other/x')).toBeUndefined();
  });

  test('Pod Security restricted: non-root, RuntimeDefault seccomp, no privilege escalation, every capability dropped', () => {
    for (const profile of [PROFILE, { ...PROFILE, runAsUser: undefined, runAsGroup: undefined }]) {
      const pod = podSpec({ ...INPUT, profile }, undefined);
      expect(pod.spec?.securityContext).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(pod.spec?.containers[0]?.securityContext).toEqual({
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
      expect(pod.spec?.hostNetwork).toBeUndefined();
      expect(pod.spec?.volumes?.map((v) => Object.keys(v).filter((k) => k !== 'name'))).toEqual([
        ['secret'],
        ['persistentVolumeClaim'],
      ]);
    }
    expect(
      podSpec({ ...INPUT, profile: { ...PROFILE, runAsUser: undefined } }, undefined).spec?.securityContext,
    ).toEqual({
      runAsNonRoot: true,
      runAsGroup: 999,
      seccompProfile: { type: 'RuntimeDefault' },
    });
  });

  test("resources: the defaults when the profile names none, else the profile's section by section", () => {
    expect(podSpec(INPUT, undefined).spec?.containers[0]?.resources).toEqual({
      requests: { cpu: '250m', memory: '512Mi' },
      limits: { cpu: '2', memory: '4Gi' },
    });
    const limits = { cpu: '500m', memory: '1Gi' };
    expect(
      podSpec({ ...INPUT, profile: { ...PROFILE, resources: { limits } } }, undefined).spec?.containers[0]?.resources,
    ).toEqual({
      requests: { cpu: '250m', memory: '512Mi' },
      limits,
    });
    const both = { requests: { cpu: '1', memory: '2Gi' }, limits: { cpu: '4', memory: '8Gi' } };
    expect(
      podSpec({ ...INPUT, profile: { ...PROFILE, resources: both } }, undefined).spec?.containers[0]?.resources,
    ).toEqual(both);
  });

  test('selectors and pod states', () => {
    expect(labelSelector('kandev', 'cluster', SESSION)).toBe(
      `dev.kandev.managed-by=kandev-kubernetes-executor,dev.kandev.backend-id=kandev,dev.kandev.executor=cluster,dev.kandev.session-id=${SESSION}`,
    );
    expect(podCondition({ status: { phase: 'Pending' } })).toEqual({ state: 'pending' });
    expect(podCondition({ status: { phase: 'Running', podIP: '10.0.0.8' } })).toEqual({
      state: 'running',
      podIp: '10.0.0.8',
    });
    expect(
      podCondition({
        status: {
          phase: 'Failed',
          containerStatuses: [
            {
              name: 'agentctl',
              image: '',
              imageID: '',
              ready: false,
              restartCount: 0,
              state: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
            },
          ],
        },
      }),
    ).toEqual({ state: 'ended', reason: 'agentctl pod ended (OOMKilled, exit 137)' });
  });
});
