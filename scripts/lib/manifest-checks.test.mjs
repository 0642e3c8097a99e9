// The manifest checks refuse what they must, without kubectl: a small hand-made deployment that passes,
// then each planted violation in it, and the agentctl pod the built backend makes (npm test builds
// first). scripts/check-manifests.mjs runs the same planted violations over the real overlays.
//   node --test scripts/lib/manifest-checks.test.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { agentctlPods, manifestProblems } from './manifest-checks.mjs';
import { plantedViolations } from './planted-violations.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const profiles = readFileSync(join(root, 'deploy/kubernetes/base/executor-profiles.json'), 'utf8');

const SERVICE_NAMES = [
  'kandev-backend',
  'kandev-backend.kandev',
  'kandev-backend.kandev.svc',
  'kandev-backend.kandev.svc.cluster.local',
];

function deployment() {
  const labels = { 'app.kubernetes.io/name': 'kandev-backend' };
  return [
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'kandev', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'config' },
      data: {
        KANDEV_EXECUTORS: 'none',
        KANDEV_ALLOWED_HOSTS: SERVICE_NAMES.join(','),
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kandev-backend', namespace: 'kandev' },
      spec: { selector: labels, ports: [{ port: 7420 }] },
    },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'profiles' }, data: { 'profiles.json': profiles } },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'kandev-backend', labels },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            securityContext: { runAsNonRoot: true, runAsUser: 999, seccompProfile: { type: 'RuntimeDefault' } },
            containers: [
              {
                name: 'backend',
                image: 'kandev/backend:dev',
                envFrom: [{ configMapRef: { name: 'config' } }],
                env: [{ name: 'KANDEV_SECRET_KEY_FILE', value: '/etc/kandev/secret-key/key' }],
                resources: { requests: { cpu: '250m', memory: '512Mi' }, limits: { cpu: '2', memory: '2Gi' } },
                securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
                volumeMounts: [{ name: 'key', mountPath: '/etc/kandev/secret-key', readOnly: true }],
              },
            ],
            volumes: [{ name: 'key', secret: { secretName: 'kandev-secret-key' } }],
          },
        },
      },
    },
  ];
}

test('a restricted deployment with its resources and the sample profile passes', () => {
  assert.deepEqual(manifestProblems(deployment(), root), []);
});

test('every name of the Service must be an allowed host', () => {
  const objects = deployment();
  objects[1].data.KANDEV_ALLOWED_HOSTS = 'kandev-backend,kandev-backend.kandev';
  assert.deepEqual(manifestProblems(objects, root), [
    'Deployment/kandev-backend: KANDEV_ALLOWED_HOSTS must list kandev-backend.kandev.svc (else a 403)',
    'Deployment/kandev-backend: KANDEV_ALLOWED_HOSTS must list kandev-backend.kandev.svc.cluster.local (else a 403)',
  ]);
});

for (const planted of plantedViolations(deployment())) {
  test(`refused: ${planted.name}`, () => {
    const problems = manifestProblems(planted.objects, root);
    assert.ok(
      problems.some((line) => line.includes(planted.expect)),
      `expected a line with "${planted.expect}", got:\n${problems.join('\n')}`,
    );
  });
}

test('the agentctl pod the backend makes for the sample profile is checked like any pod', () => {
  const [pod] = agentctlPods(deployment(), root).pods;
  assert.equal(pod.kind, 'Pod');
  assert.deepEqual(manifestProblems([pod], root), []);
  delete pod.spec.securityContext.seccompProfile;
  pod.spec.containers[0].securityContext.capabilities.add = ['SYS_ADMIN'];
  assert.deepEqual(manifestProblems([pod], root), [
    `Pod/${pod.metadata.name}: containers.agentctl.securityContext.seccompProfile.type: must be RuntimeDefault or Localhost (on the container or the pod)`,
    `Pod/${pod.metadata.name}: containers.agentctl.securityContext.capabilities.add: SYS_ADMIN is not allowed`,
  ]);
});
