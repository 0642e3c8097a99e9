import type { CoreV1Api, V1Pod, V1Secret, Watch } from '@kubernetes/client-node';

// The only file that calls @kubernetes/client-node (1.x, an ES module: see ADR 2026-12-02 kubernetes
// executor). It is loaded with a dynamic import() on the first call, so a backend without a kubernetes
// profile never loads it. Exactly the calls the executor makes, which are exactly the rights
// deploy/kubernetes/rbac.yaml grants: pods create/get/list/watch/delete, secrets create/get/delete, in
// one namespace.

/** The resource types, for the loopback API server the tests run (test/helpers/kubernetes-api-server.ts). */
export type { V1Pod, V1Secret };

export type PodEvent = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface KubernetesApi {
  createPod(pod: V1Pod): Promise<V1Pod>;
  /** Undefined when the pod is gone (404). */
  readPod(name: string): Promise<V1Pod | undefined>;
  listPods(labelSelector: string): Promise<V1Pod[]>;
  /** Deletes; a pod that is already gone is not an error. */
  deletePod(name: string): Promise<void>;
  createSecret(secret: V1Secret): Promise<void>;
  /** Undefined when the Secret is gone (404). */
  readSecret(name: string): Promise<V1Secret | undefined>;
  deleteSecret(name: string): Promise<void>;
  /** Streams pod changes until the server ends the watch (`done`) or `stop()` is called. */
  watchPods(
    labelSelector: string,
    onEvent: (type: PodEvent, pod: V1Pod) => void,
    done: (error: unknown) => void,
  ): Promise<{ stop(): void }>;
}

/** The HTTP status of a failed call (the library's ApiException carries it as `code`). */
export function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'number'
    ? error.code
    : undefined;
}

async function orUndefined<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (error) {
    if (statusOf(error) === 404) return undefined;
    throw error;
  }
}

async function ignoreGone(call: Promise<unknown>): Promise<void> {
  await orUndefined(call);
}

interface Clients {
  core: CoreV1Api;
  watch: Watch;
}

/** Kubeconfig from the standard places: KUBECONFIG, ~/.kube/config, or the in-cluster service account. */
async function connect(): Promise<Clients> {
  const k8s = await import('@kubernetes/client-node');
  const config = new k8s.KubeConfig();
  config.loadFromDefault();
  return { core: config.makeApiClient(k8s.CoreV1Api), watch: new k8s.Watch(config) };
}

export function kubernetesApi(namespace: string): KubernetesApi {
  let clients: Promise<Clients> | undefined;
  const use = async <T>(call: (c: Clients) => Promise<T>): Promise<T> => call(await (clients ??= connect()));
  return {
    createPod: (body) => use(({ core }) => core.createNamespacedPod({ namespace, body })),
    readPod: (name) => use(({ core }) => orUndefined(core.readNamespacedPod({ namespace, name }))),
    listPods: (labelSelector) =>
      use(async ({ core }) => (await core.listNamespacedPod({ namespace, labelSelector })).items),
    deletePod: (name) =>
      use(({ core }) => ignoreGone(core.deleteNamespacedPod({ namespace, name, gracePeriodSeconds: 5 }))),
    createSecret: (body) =>
      use(async ({ core }) => {
        await core.createNamespacedSecret({ namespace, body });
      }),
    readSecret: (name) => use(({ core }) => orUndefined(core.readNamespacedSecret({ namespace, name }))),
    deleteSecret: (name) => use(({ core }) => ignoreGone(core.deleteNamespacedSecret({ namespace, name }))),
    watchPods: (labelSelector, onEvent, done) =>
      use(async ({ watch }) => {
        const controller = await watch.watch(
          `/api/v1/namespaces/${namespace}/pods`,
          { labelSelector },
          (type: string, pod: V1Pod) => {
            if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') onEvent(type, pod);
          },
          done,
        );
        return { stop: () => controller.abort() };
      }),
  };
}
