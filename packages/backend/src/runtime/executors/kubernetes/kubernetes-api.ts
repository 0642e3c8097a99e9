import { ApiException, CoreV1Api, KubeConfig, type V1Pod, type V1Secret, Watch } from '@kubernetes/client-node';

// The only file that calls @kubernetes/client-node (1.x: an ES module, loaded through Node's
// require(esm) like every ESM-only dependency: docs/architecture.md). Exactly the calls the executor
// makes, which are exactly the rights deploy/kubernetes/base/rbac.yaml grants: pods create/get/list/watch/delete, secrets
// create/get/delete, in one namespace.

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

export function statusOf(error: unknown): number | undefined {
  return error instanceof ApiException ? error.code : undefined;
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

/** Kubeconfig from the standard places: KUBECONFIG, ~/.kube/config, or the in-cluster service account. */
export function kubernetesApi(namespace: string): KubernetesApi {
  const config = new KubeConfig();
  config.loadFromDefault();
  const core = config.makeApiClient(CoreV1Api);
  const watch = new Watch(config);
  return {
    createPod: (body) => core.createNamespacedPod({ namespace, body }),
    readPod: (name) => orUndefined(core.readNamespacedPod({ namespace, name })),
    listPods: async (labelSelector) => (await core.listNamespacedPod({ namespace, labelSelector })).items,
    deletePod: (name) => ignoreGone(core.deleteNamespacedPod({ namespace, name, gracePeriodSeconds: 5 })),
    createSecret: async (body) => {
      await core.createNamespacedSecret({ namespace, body });
    },
    readSecret: (name) => orUndefined(core.readNamespacedSecret({ namespace, name })),
    deleteSecret: (name) => ignoreGone(core.deleteNamespacedSecret({ namespace, name })),
    async watchPods(labelSelector, onEvent, done) {
      const controller = await watch.watch(
        `/api/v1/namespaces/${namespace}/pods`,
        { labelSelector },
        (type: string, pod: V1Pod) => {
          if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') onEvent(type, pod);
        },
        done,
      );
      return { stop: () => controller.abort() };
    },
  };
}
