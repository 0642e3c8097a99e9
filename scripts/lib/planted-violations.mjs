// Violations planted one at a time in a copy of a built overlay: manifest-checks.mjs must report each
// (`expect` is part of the line it reports). scripts/check-manifests.mjs runs them over the real build;
// manifest-checks.test.mjs over a small hand-made set.

const copy = (objects) => JSON.parse(JSON.stringify(objects));
const find = (objects, kind, name) => {
  const found = objects.find((o) => o.kind === kind && (name === undefined || o.metadata?.name === name));
  if (found === undefined) throw new Error(`no ${kind}${name === undefined ? '' : `/${name}`} to plant a violation in`);
  return found;
};
const backend = (objects) => find(objects, 'Deployment', 'kandev-backend').spec.template.spec;
const profileMap = (objects) => {
  const found = objects.find((o) => o.kind === 'ConfigMap' && o.data?.['profiles.json'] !== undefined);
  if (found === undefined) throw new Error('no ConfigMap with profiles.json to plant a violation in');
  return found;
};

/** Each case: a name, the objects with one violation planted, and what the report must say. */
export function plantedViolations(objects) {
  const plant = (name, expect, change) => {
    const planted = copy(objects);
    change(planted);
    return { name, expect, objects: planted };
  };
  return [
    plant('a pod without a seccomp profile', 'seccompProfile.type: must be RuntimeDefault or Localhost', (o) => {
      delete backend(o).securityContext.seccompProfile;
    }),
    plant('a field the API does not have', '\'"securityContex"\' does not exist', (o) => {
      backend(o).containers[0].securityContex = { runAsNonRoot: true };
    }),
    plant('a value of the wrong type', 'replicas must be integer', (o) => {
      find(o, 'Deployment', 'kandev-backend').spec.replicas = 'three';
    }),
    plant('a root container', 'runAsUser: must not be 0', (o) => {
      backend(o).containers[0].securityContext.runAsUser = 0;
    }),
    plant('capabilities kept', 'capabilities.drop: must include ALL', (o) => {
      delete backend(o).containers[0].securityContext.capabilities;
    }),
    plant('privilege escalation', 'allowPrivilegeEscalation: must be false', (o) => {
      backend(o).containers[0].securityContext.allowPrivilegeEscalation = true;
    }),
    plant('a hostPath volume', 'volume type hostPath is not allowed', (o) => {
      backend(o).volumes.push({ name: 'host', hostPath: { path: '/' } });
    }),
    plant('no memory limit', 'resources.limits.memory: must be set', (o) => {
      delete backend(o).containers[0].resources.limits.memory;
    }),
    plant('a namespace without Pod Security', 'pod-security.kubernetes.io/enforce must be restricted', (o) => {
      delete find(o, 'Namespace').metadata.labels['pod-security.kubernetes.io/enforce'];
    }),
    plant('the local executor on', 'KANDEV_EXECUTORS must not include local', (o) => {
      const env = backend(o).containers[0].env;
      env.unshift({ name: 'KANDEV_EXECUTORS', value: 'local' });
    }),
    plant('no shared secret key', 'KANDEV_SECRET_KEY_FILE must be set', (o) => {
      const container = backend(o).containers[0];
      container.env = container.env.filter((e) => e.name !== 'KANDEV_SECRET_KEY_FILE');
    }),
    plant('a host name the backend would refuse', 'KANDEV_ALLOWED_HOSTS must list kandev.other.example', (o) => {
      o.push({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { name: 'kandev-other' },
        spec: { rules: [{ host: 'kandev.other.example' }] },
      });
    }),
    plant('an agentctl profile that runs as root', 'run_as_user', (o) => {
      const map = profileMap(o);
      const parsed = JSON.parse(map.data['profiles.json']);
      for (const profile of Object.values(parsed)) profile.run_as_user = 0;
      map.data['profiles.json'] = JSON.stringify(parsed);
    }),
  ];
}
