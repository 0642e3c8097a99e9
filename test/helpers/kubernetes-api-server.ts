// A loopback server that speaks the Kubernetes REST API (core/v1) for exactly the calls the kubernetes
// executor makes: pods create/get/list(label selector)/watch/delete and secrets create/get/delete, in
// any namespace. No cluster can run here, so this plays the API server AND the kubelet: each created
// pod's agentctl runs as a real child process (the built packages/agentctl/dist/main.js), so the
// executor talks to a real agentctl over real gRPC.
//
// What it emulates, and how:
// - Pod network: each pod gets its own loopback address (127.x.y.n; Linux routes all of 127/8 to lo),
//   so every agentctl listens on the pod's container ports like in a cluster.
// - Volumes and env: see kubernetes-kubelet.ts.
// - Status: Pending until the Secret a volume names exists and agentctl prints its ready line, then
//   Running with the pod IP and Ready; Failed (or Succeeded) with the exit code when agentctl exits.
// - Delete: SIGTERM (SIGKILL after the grace period), then the pod is gone (no Terminating phase), and
//   the Secrets it owns (ownerReferences) are garbage-collected like the cluster's collector does.
// - Anything else answers 404 and is recorded in `unexpected`, so a test sees a call the RBAC Role
//   (deploy/kubernetes/base/rbac.yaml) would not grant.
import type { ChildProcess } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { V1Pod, V1Secret } from '@kandev/backend/testing';
import type { Cleanup } from './cleanup';
import {
  listenHttps,
  matches,
  parseSelector,
  readBody,
  status,
  type Watcher,
  writeKubeconfig,
} from './kubernetes-api-wire';
import { startPodProcess } from './kubernetes-kubelet';
import { stopProcess, tempDir } from './processes';

export interface FakeCall {
  verb: 'create' | 'get' | 'list' | 'watch' | 'delete';
  resource: 'pods' | 'secrets';
  namespace: string;
}

interface PodRecord {
  pod: V1Pod;
  child?: ChildProcess;
  logs: string[];
}

export interface KubernetesApiServer {
  url: string;
  /** A kubeconfig file (JSON is YAML) pointing at this server, with `namespace` as the context's. */
  kubeconfig: string;
  calls: FakeCall[];
  unexpected: string[];
  /** Every response body sent, in order (to check that no token leaks into a pod answer). */
  podAnswers: string[];
  pods(): V1Pod[];
  secrets(): V1Secret[];
  /** The running pod of a session (by the executor's session label). */
  podOfSession(sessionId: string): V1Pod | undefined;
  /** The control token in a pod's Secret (as the test reads it: the API, like `kubectl get secret`). */
  tokenOf(podName: string): string | undefined;
  /** agentctl's stderr in one pod. */
  logsOf(podName: string): string;
  /** A pod someone else left (another backend, a crash): recorded as Failed, nothing runs. */
  inject(pod: V1Pod): void;
  /** Ends a pod's agentctl as if it crashed (the pod turns Failed). */
  crash(podName: string): void;
}

export async function startKubernetesApiServer(
  cleanup: Cleanup,
  options: { namespace: string; claims?: Record<string, string> },
): Promise<KubernetesApiServer> {
  const pods = new Map<string, PodRecord>(); // key: namespace/name
  const secrets = new Map<string, V1Secret>();
  const watchers = new Set<Watcher>();
  const calls: FakeCall[] = [];
  const unexpected: string[] = [];
  const podAnswers: string[] = [];
  const root = tempDir(cleanup, 'kandev-kube-');
  const net = `127.${randomInt(1, 255)}.${randomInt(0, 255)}`;
  let nextHost = 2;
  let resourceVersion = 1;

  const key = (ns: string, name: string) => `${ns}/${name}`;
  const bump = (pod: V1Pod) => {
    pod.metadata = { ...pod.metadata, resourceVersion: String(++resourceVersion) };
  };
  const notify = (type: 'ADDED' | 'MODIFIED' | 'DELETED', ns: string, pod: V1Pod) => {
    for (const w of watchers) {
      if (w.namespace === ns && matches(pod.metadata?.labels, w.selector))
        w.res.write(`${JSON.stringify({ type, object: pod })}\n`);
    }
  };
  const sendPod = (res: ServerResponse, code: number, body: unknown) => {
    const text = JSON.stringify(body);
    podAnswers.push(text);
    res.writeHead(code, { 'content-type': 'application/json' }).end(text);
  };

  /** The kubelet's part: once the pod's Secrets exist, run its agentctl. */
  function maybeRun(ns: string, record: PodRecord): void {
    const spec = record.pod.spec;
    if (record.child !== undefined || spec === undefined || record.pod.status?.phase !== 'Pending') return;
    const name = record.pod.metadata?.name ?? '';
    const podIp = `${net}.${nextHost}`;
    const child = startPodProcess(record.pod, {
      dir: join(root, name),
      podIp,
      secretData: (secret) => secrets.get(key(ns, secret))?.data,
      claims: options.claims ?? {},
    });
    if (child === undefined) return;
    nextHost += 1;
    const container = spec.containers[0];
    record.child = child;
    createInterface({ input: child.stderr }).on('line', (line) => record.logs.push(line));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.includes('"event":"ready"') || pods.get(key(ns, name)) !== record) return;
      record.pod.status = {
        phase: 'Running',
        podIP: podIp,
        podIPs: [{ ip: podIp }],
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [
          {
            name: container?.name ?? 'agentctl',
            ready: true,
            restartCount: 0,
            image: container?.image ?? '',
            imageID: '',
            state: { running: {} },
          },
        ],
      };
      bump(record.pod);
      notify('MODIFIED', ns, record.pod);
    });
    child.once('exit', (code, signal) => {
      if (pods.get(key(ns, name)) !== record) return;
      const exitCode = code ?? (signal === null ? 1 : 128);
      record.pod.status = {
        ...record.pod.status,
        phase: exitCode === 0 ? 'Succeeded' : 'Failed',
        conditions: [{ type: 'Ready', status: 'False' }],
        containerStatuses: [
          {
            name: container?.name ?? 'agentctl',
            ready: false,
            restartCount: 0,
            image: container?.image ?? '',
            imageID: '',
            state: { terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error' } },
          },
        ],
      };
      bump(record.pod);
      notify('MODIFIED', ns, record.pod);
    });
  }

  function addPod(ns: string, pod: V1Pod): PodRecord {
    pod.metadata = { ...pod.metadata, namespace: ns, uid: randomUUID(), creationTimestamp: new Date() };
    pod.status = { phase: 'Pending' };
    bump(pod);
    const record: PodRecord = { pod, logs: [] };
    pods.set(key(ns, pod.metadata.name ?? ''), record);
    notify('ADDED', ns, pod);
    return record;
  }

  async function deletePod(ns: string, record: PodRecord): Promise<void> {
    const name = record.pod.metadata?.name ?? '';
    pods.delete(key(ns, name));
    if (record.child !== undefined) await stopProcess(record.child, { graceMs: 5_000 });
    const uid = record.pod.metadata?.uid;
    for (const [k, s] of secrets) if (s.metadata?.ownerReferences?.some((o) => o.uid === uid)) secrets.delete(k);
    bump(record.pod);
    notify('DELETED', ns, record.pod);
  }

  async function handlePods(req: IncomingMessage, res: ServerResponse, ns: string, name: string | undefined, url: URL) {
    const method = req.method ?? 'GET';
    if (name === undefined && method === 'POST') {
      calls.push({ verb: 'create', resource: 'pods', namespace: ns });
      const pod = (await readBody(req)) as V1Pod;
      const podName = pod.metadata?.name ?? '';
      if (pods.has(key(ns, podName))) return status(res, 409, 'AlreadyExists', `pods "${podName}" already exists`);
      const record = addPod(ns, pod);
      sendPod(res, 201, record.pod);
      maybeRun(ns, record);
      return;
    }
    if (name === undefined && method === 'GET') {
      const selector = parseSelector(url.searchParams.get('labelSelector'));
      const found = [...pods.entries()].filter(
        ([k, r]) => k.startsWith(`${ns}/`) && matches(r.pod.metadata?.labels, selector),
      );
      if (url.searchParams.get('watch') === 'true') {
        calls.push({ verb: 'watch', resource: 'pods', namespace: ns });
        res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
        // Headers at once: the client's watch waits for them, and there may be no event for a while.
        res.flushHeaders();
        for (const [, r] of found) res.write(`${JSON.stringify({ type: 'ADDED', object: r.pod })}\n`);
        const watcher: Watcher = { namespace: ns, selector, res };
        watchers.add(watcher);
        res.on('close', () => watchers.delete(watcher));
        return;
      }
      calls.push({ verb: 'list', resource: 'pods', namespace: ns });
      return sendPod(res, 200, {
        kind: 'PodList',
        apiVersion: 'v1',
        metadata: { resourceVersion: String(resourceVersion) },
        items: found.map(([, r]) => r.pod),
      });
    }
    const record = pods.get(key(ns, name ?? ''));
    if (method === 'GET' || method === 'DELETE') {
      calls.push({ verb: method === 'GET' ? 'get' : 'delete', resource: 'pods', namespace: ns });
      if (record === undefined) return status(res, 404, 'NotFound', `pods "${name}" not found`);
      if (method === 'DELETE') await deletePod(ns, record);
      return sendPod(res, 200, record.pod);
    }
    unexpected.push(`${method} ${url.pathname}`);
    status(res, 405, 'MethodNotAllowed', 'not served by the loopback API server');
  }

  async function handleSecrets(
    req: IncomingMessage,
    res: ServerResponse,
    ns: string,
    name: string | undefined,
    url: URL,
  ) {
    const method = req.method ?? 'GET';
    const send = (code: number, body: unknown) =>
      res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (name === undefined && method === 'POST') {
      calls.push({ verb: 'create', resource: 'secrets', namespace: ns });
      const secret = (await readBody(req)) as V1Secret;
      const secretName = secret.metadata?.name ?? '';
      if (secrets.has(key(ns, secretName)))
        return status(res, 409, 'AlreadyExists', `secrets "${secretName}" already exists`);
      secret.metadata = { ...secret.metadata, namespace: ns, uid: randomUUID() };
      secrets.set(key(ns, secretName), secret);
      send(201, secret);
      for (const [k, record] of pods) if (k.startsWith(`${ns}/`)) maybeRun(ns, record);
      return;
    }
    const secret = secrets.get(key(ns, name ?? ''));
    if (name !== undefined && (method === 'GET' || method === 'DELETE')) {
      calls.push({ verb: method === 'GET' ? 'get' : 'delete', resource: 'secrets', namespace: ns });
      if (secret === undefined) return status(res, 404, 'NotFound', `secrets "${name}" not found`);
      if (method === 'DELETE') secrets.delete(key(ns, name));
      return send(200, secret);
    }
    unexpected.push(`${method} ${url.pathname}`);
    status(res, 405, 'MethodNotAllowed', 'not served by the loopback API server');
  }

  const { url, ca } = await listenHttps(cleanup, (req, res) => {
    const parsed = new URL(req.url ?? '/', 'http://loopback');
    const match = /^\/api\/v1\/namespaces\/([^/]+)\/(pods|secrets)(?:\/([^/]+))?$/.exec(parsed.pathname);
    const handle =
      match === null
        ? undefined
        : match[2] === 'pods'
          ? handlePods(req, res, match[1] ?? '', match[3], parsed)
          : handleSecrets(req, res, match[1] ?? '', match[3], parsed);
    if (handle === undefined) {
      unexpected.push(`${req.method} ${parsed.pathname}`);
      return status(res, 404, 'NotFound', 'not served by the loopback API server');
    }
    handle.catch((error: unknown) => status(res, 500, 'InternalError', String(error)));
  });
  // Before the listener closes: end the watches, then stop every pod's agentctl.
  cleanup.defer(async () => {
    for (const w of watchers) w.res.end();
    const children = [...pods.values()].flatMap((r) => (r.child === undefined ? [] : [r.child]));
    await Promise.all(children.map((child) => stopProcess(child, { graceMs: 5_000 })));
  });

  const kubeconfig = writeKubeconfig(join(root, 'kubeconfig'), url, ca, options.namespace);

  return {
    url,
    kubeconfig,
    calls,
    unexpected,
    podAnswers,
    pods: () => [...pods.values()].map((r) => r.pod),
    secrets: () => [...secrets.values()],
    podOfSession: (sessionId) =>
      [...pods.values()].find(
        (r) => r.pod.metadata?.labels?.['dev.kandev.session-id'] === sessionId && r.pod.status?.phase === 'Running',
      )?.pod,
    tokenOf(podName) {
      const value = [...secrets.values()].find((s) => s.metadata?.name === podName)?.data?.token;
      return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
    },
    logsOf: (podName) => [...pods.values()].find((r) => r.pod.metadata?.name === podName)?.logs.join('\n') ?? '',
    inject(pod) {
      const record = addPod(options.namespace, pod);
      record.pod.status = { phase: 'Failed', reason: 'Error' };
    },
    crash(podName) {
      [...pods.values()].find((r) => r.pod.metadata?.name === podName)?.child?.kill('SIGKILL');
    },
  };
}
