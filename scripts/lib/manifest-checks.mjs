// Everything checked over the objects a kustomize overlay builds (scripts/check-manifests.mjs builds
// them; manifest-checks.test.mjs plants violations): the Kubernetes schemas, Pod Security `restricted`
// and resources over every pod spec, including the agentctl pod the backend would make from each
// executor profile in a ConfigMap (the built backend's own pod spec code), and what the backend
// Deployment must carry on a cluster (a shared secret key, no `local` executor, every name of its
// Service and Ingress in KANDEV_ALLOWED_HOSTS).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { schemaProblems } from './kubernetes-schemas.mjs';
import { namespaceProblems, workloadProblems } from './pod-security.mjs';

const require = createRequire(import.meta.url);
const FAKE_PEM =
  '-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----\nAA==\n-----END PRIVATE KEY-----\n';

/** One line per problem in `objects`; none means they pass. */
export function manifestProblems(objects, root) {
  const { pods, problems } = agentctlPods(objects, root);
  return [
    ...problems,
    ...schemaProblems([...objects, ...pods], root),
    ...workloadProblems([...objects, ...pods]),
    ...namespaceProblems(objects),
    ...backendProblems(objects),
  ];
}

/**
 * The pod the built backend (packages/backend/dist) makes for a session on each kubernetes profile
 * found in a ConfigMap's profiles.json, with TLS and a task workspace (the most it ever adds).
 */
export function agentctlPods(objects, root) {
  const dist = join(root, 'packages/backend/dist/runtime/executors/kubernetes');
  const { kubernetesEntry } = require(join(dist, 'kubernetes-config.js'));
  const { podSpec } = require(join(dist, 'kubernetes-pod-spec.js'));
  const pods = [];
  const problems = [];
  for (const map of objects.filter((o) => o.kind === 'ConfigMap' && o.data?.['profiles.json'] !== undefined)) {
    let profiles;
    try {
      profiles = JSON.parse(map.data['profiles.json']);
    } catch (error) {
      problems.push(`ConfigMap/${map.metadata?.name}: profiles.json: ${error.message}`);
      continue;
    }
    for (const [name, raw] of Object.entries(profiles)) {
      if (raw?.kind !== 'kubernetes') continue;
      let profile;
      try {
        profile = kubernetesEntry(name, raw, { image: 'kandev/agentctl:dev' }, () => FAKE_PEM);
      } catch (error) {
        problems.push(
          `ConfigMap/${map.metadata?.name}: profile ${name}: ${error.variables?.join(', ') ?? error.message}`,
        );
        continue;
      }
      const pod = podSpec(
        {
          profile,
          backendId: profile.backendId ?? 'kandev',
          name: `kandev-agentctl-profile-${name}`,
          sessionId: '00000000-0000-4000-8000-000000000000',
          agentctlId: 'check',
          logLevel: 'info',
          toolCallTimeoutMs: 60_000,
          workspacesDir: '/workspaces',
          workspace: { hostPath: '/workspaces/task', gitDirs: ['/workspaces/.sources/repo/.git'] },
        },
        profile.tls?.server,
      );
      pods.push({ ...pod, metadata: { ...pod.metadata, namespace: profile.namespace } });
    }
  }
  return { pods, problems };
}

/** The backend Deployment on a cluster: every replica reads one secret key; no per-replica `local` agentctl. */
function backendProblems(objects) {
  const problems = [];
  const configs = objects.filter((o) => o.kind === 'ConfigMap');
  for (const deployment of objects.filter((o) => o.kind === 'Deployment' && o.metadata?.name === 'kandev-backend')) {
    const where = `Deployment/${deployment.metadata.name}`;
    const container = deployment.spec?.template?.spec?.containers?.find((c) => c.name === 'backend');
    const env = Object.fromEntries((container?.env ?? []).map((e) => [e.name, e]));
    for (const from of container?.envFrom ?? []) {
      const map = configs.find((c) => c.metadata?.name === from.configMapRef?.name);
      for (const [name, value] of Object.entries(map?.data ?? {})) env[name] ??= { name, value };
    }
    if (env.KANDEV_SECRET_KEY_FILE === undefined && env.KANDEV_SECRET_KEY?.valueFrom === undefined) {
      problems.push(`${where}: KANDEV_SECRET_KEY_FILE must be set (from a Secret): every replica needs the same key`);
    }
    const allowed = new Set((env.KANDEV_ALLOWED_HOSTS?.value ?? '').split(',').map((h) => h.trim().toLowerCase()));
    for (const host of namesToAllow(objects)) {
      if (!allowed.has(host)) problems.push(`${where}: KANDEV_ALLOWED_HOSTS must list ${host} (else a 403)`);
    }
    const executors = (env.KANDEV_EXECUTORS?.value ?? 'local').split(',').map((k) => k.trim());
    if (executors.includes('local')) {
      problems.push(`${where}: KANDEV_EXECUTORS must not include local: its agentctl would serve one replica only`);
    }
  }
  return problems;
}

/** Every name a request can reach the backend by: the Service's DNS forms and each Ingress host. */
function namesToAllow(objects) {
  const names = [];
  for (const service of objects.filter((o) => o.kind === 'Service' && o.metadata?.name === 'kandev-backend')) {
    const { name, namespace = 'default' } = service.metadata;
    names.push(name, `${name}.${namespace}`, `${name}.${namespace}.svc`, `${name}.${namespace}.svc.cluster.local`);
  }
  for (const ingress of objects.filter((o) => o.kind === 'Ingress')) {
    for (const rule of ingress.spec?.rules ?? []) if (rule.host !== undefined) names.push(rule.host.toLowerCase());
  }
  return names;
}
