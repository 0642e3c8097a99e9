#!/usr/bin/env node
// Checks deploy/kubernetes: `kubectl kustomize` builds the base and every overlay, a client-side dry run
// (`kubectl create --dry-run=client`) decodes every object, then scripts/lib/manifest-checks.mjs checks
// them offline: the Kubernetes schemas (kubernetes-models), Pod Security `restricted` and requests and
// limits over every pod spec, including the agentctl pod the built backend makes from the executor
// profile. Last it plants violations in a copy of what it built and requires the check to refuse them
// (a check that cannot fail proves nothing). CI installs Debian bookworm's kubernetes-client (kubectl
// 1.20, kustomize v2.0.3), so the manifests use only what that supports.
// Without kubectl (KANDEV_KUBECTL when set, else `kubectl` on PATH) this prints ONE 'skipped' line and
// exits 0, except in CI (CI=true), where .ci/run installs it and a missing one is a failure.
//
// Why a server: kubectl 1.20 maps every kind to its resource through API discovery, even for a
// client-side dry run (it dials localhost:8080 otherwise). So the dry run points kubectl at a
// loopback server that answers ONLY the discovery documents for the kinds deploy/kubernetes uses and
// refuses everything else (any other call fails the check: a dry run must not write). kubectl's own
// schema validation needs the server's OpenAPI document, which no offline kubectl 1.20 has
// (`--validate=false`): kubernetes-models validates instead.
//   node scripts/check-manifests.mjs
import { spawn as spawnAsync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { manifestProblems } from './lib/manifest-checks.mjs';
import { plantedViolations } from './lib/planted-violations.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, 'deploy/kubernetes');
/** What an operator applies (overlays) and what they are made from (the base). */
const builds = ['base', 'overlays/production'];

function findKubectl() {
  if (process.env.KANDEV_KUBECTL) return process.env.KANDEV_KUBECTL;
  const found = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
  return found.error === undefined && found.status === 0 ? 'kubectl' : undefined;
}

const kubectl = findKubectl();
if (kubectl === undefined) {
  const why = 'no kubectl (apt-get install kubernetes-client, or set KANDEV_KUBECTL)';
  if (process.env.CI === 'true') {
    console.error(`manifest check: FAILED: ${why}; .ci/run installs it`);
    process.exit(1);
  }
  console.error(`skipped: manifest check: ${why}; it runs in .ci/run`);
  process.exit(0);
}

const resources = (list) =>
  list.map(([name, kind, namespaced]) => ({
    name,
    singularName: '',
    namespaced,
    kind,
    verbs: ['create', 'get', 'list'],
  }));
const discovery = {
  // Newer kubectl asks which server it talks to first.
  '/version': { major: '1', minor: '20', gitVersion: 'v1.20.0-discovery-only' },
  '/api': {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }],
  },
  '/api/v1': {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: resources([
      ['namespaces', 'Namespace', false],
      ['serviceaccounts', 'ServiceAccount', true],
      ['configmaps', 'ConfigMap', true],
      ['secrets', 'Secret', true],
      ['services', 'Service', true],
      ['persistentvolumeclaims', 'PersistentVolumeClaim', true],
      ['pods', 'Pod', true],
    ]),
  },
  '/apis/policy/v1': {
    kind: 'APIResourceList',
    groupVersion: 'policy/v1',
    resources: resources([['poddisruptionbudgets', 'PodDisruptionBudget', true]]),
  },
  '/apis/apps/v1': {
    kind: 'APIResourceList',
    groupVersion: 'apps/v1',
    resources: resources([['deployments', 'Deployment', true]]),
  },
  '/apis/rbac.authorization.k8s.io/v1': {
    kind: 'APIResourceList',
    groupVersion: 'rbac.authorization.k8s.io/v1',
    resources: resources([
      ['roles', 'Role', true],
      ['rolebindings', 'RoleBinding', true],
    ]),
  },
  '/apis/networking.k8s.io/v1': {
    kind: 'APIResourceList',
    groupVersion: 'networking.k8s.io/v1',
    resources: resources([
      ['networkpolicies', 'NetworkPolicy', true],
      ['ingresses', 'Ingress', true],
    ]),
  },
};
const group = (name) => ({
  name,
  versions: [{ groupVersion: `${name}/v1`, version: 'v1' }],
  preferredVersion: { groupVersion: `${name}/v1`, version: 'v1' },
});
discovery['/apis'] = {
  kind: 'APIGroupList',
  apiVersion: 'v1',
  groups: ['apps', 'policy', 'rbac.authorization.k8s.io', 'networking.k8s.io'].map(group),
};

const refused = [];
const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://loopback').pathname;
  const body = req.method === 'GET' ? discovery[path] : undefined;
  if (body === undefined) {
    if (req.method !== 'GET' || !path.startsWith('/openapi')) refused.push(`${req.method} ${path}`);
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end('{"kind":"Status","apiVersion":"v1","status":"Failure","code":404}');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const temp = mkdtempSync(join(tmpdir(), 'kandev-manifests-'));
const kubeconfig = join(temp, 'kubeconfig');
writeFileSync(
  kubeconfig,
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'discovery', cluster: { server: `http://127.0.0.1:${server.address().port}` } }],
    users: [{ name: 'discovery', user: {} }],
    contexts: [{ name: 'discovery', context: { cluster: 'discovery', user: 'discovery' } }],
    'current-context': 'discovery',
  }),
);

function kubectlRun(args, input) {
  // Async spawn: the discovery server answers on this process's event loop.
  return new Promise((resolve) => {
    const child = spawnAsync(kubectl, [...args, '--kubeconfig', kubeconfig, '--cache-dir', join(temp, 'cache')]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** Objects of a dry run's JSON output: one object, a List, or several objects one after another. */
function parseObjects(text) {
  const objects = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' && depth++ === 0) start = i;
    else if (c === '}' && --depth === 0) objects.push(JSON.parse(text.slice(start, i + 1)));
  }
  return objects.flatMap((o) => (o.kind === 'List' ? o.items : [o]));
}

async function build(path) {
  const built = await kubectlRun(['kustomize', join(dir, path)]);
  if (built.status !== 0) throw new Error(`kubectl kustomize ${path} failed:\n${built.stderr}`);
  const dry = await kubectlRun(
    ['create', '--dry-run=client', '--validate=false', '-o', 'json', '-f', '-'],
    built.stdout,
  );
  if (dry.status !== 0) throw new Error(`client-side dry run of ${path} failed:\n${dry.stderr}`);
  if (refused.length > 0) throw new Error(`the dry run asked for more than discovery: ${refused.join(', ')}`);
  return parseObjects(dry.stdout);
}

let failed = false;
try {
  const problems = [];
  const summary = [];
  let production;
  for (const path of builds) {
    const objects = await build(path);
    if (path === 'overlays/production') production = objects;
    problems.push(...manifestProblems(objects, root).map((p) => `${path}: ${p}`));
    summary.push(`${path}: ${objects.length} objects`);
  }
  if (problems.length > 0) throw new Error(`\n  ${problems.join('\n  ')}`);
  // The same check over the production build with violations planted: each must be refused.
  const missed = plantedViolations(production).filter(({ objects, expect }) => {
    const found = manifestProblems(objects, root);
    return !found.some((line) => line.includes(expect));
  });
  if (missed.length > 0) {
    throw new Error(`planted violations went unnoticed: ${missed.map((m) => m.name).join(', ')}`);
  }
  console.error(
    `manifest check: deploy/kubernetes builds, dry-runs, matches the Kubernetes schemas and Pod Security restricted (${summary.join('; ')}; planted violations refused)`,
  );
} catch (error) {
  failed = true;
  console.error(`manifest check: FAILED: ${error.message}`);
} finally {
  server.close();
  rmSync(temp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
