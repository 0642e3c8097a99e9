import { join } from 'node:path';
import Dockerode from 'dockerode';
import type { Config } from './config';
import type { Logger } from '../platform/logger/logger';
import { loadBackendId } from '../runtime/executors/backend-id';
import { DockerExecutor } from '../runtime/executors/docker/docker-executor';
import type { AgentctlEvents, ExecutorBackend } from '../runtime/agentctl/executor';
import type { ExecutorEntry } from '../runtime/executors/executor-config';
import { ExecutorRegistry } from '../runtime/executors/executor-registry';
import type { kubernetesApi } from '../runtime/executors/kubernetes/kubernetes-api';
import { KubernetesExecutor } from '../runtime/executors/kubernetes/kubernetes-executor';
import { LocalExecutorBackend } from '../runtime/executors/local/local-executor-backend';
import { defaultAgentctlEntry, LocalProcessExecutor } from '../runtime/executors/local/local-process-executor';
import { RemoteExecutor } from '../runtime/executors/remote/remote-executor';
import { AGENTCTL_LOG_FILE, AGENTCTL_STATE_FILE, BACKEND_ID_FILE, DOCKER_TOKEN_DIR } from './data-dir';

/**
 * @kubernetes/client-node 1.x is an ES module, which Node loads through require(esm): required only when
 * a kubernetes executor is configured, so no other start (and no jest run: jest has no require(esm))
 * loads it.
 */
function loadKubernetesApi(): typeof kubernetesApi {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('../runtime/executors/kubernetes/kubernetes-api') as { kubernetesApi: typeof kubernetesApi })
    .kubernetesApi;
}

/** A Docker Engine client for DOCKER_HOST (unix:///path or tcp://host:port), or the default socket. */
export function dockerClient(dockerHost: string | undefined): Dockerode {
  if (dockerHost === undefined) return new Dockerode();
  const url = new URL(dockerHost);
  if (url.protocol === 'unix:') return new Dockerode({ socketPath: url.pathname });
  return new Dockerode({ host: url.hostname, port: Number(url.port), protocol: 'http' });
}

function localExecutor(config: Config, logger: Logger): LocalProcessExecutor {
  return new LocalProcessExecutor({
    entry: config.agentctl.bin ?? defaultAgentctlEntry(),
    host: config.agentctl.host,
    grpcPort: config.agentctl.grpcPort,
    mcpPort: config.agentctl.mcpPort,
    token: config.agentctl.token,
    logLevel: config.logLevel,
    passEnv: config.agentctl.passEnv,
    logFile: join(config.dataDir, AGENTCTL_LOG_FILE),
    stateFile: join(config.dataDir, AGENTCTL_STATE_FILE),
    startTimeoutMs: 30_000, // as KANDEV_DOCKER_START_TIMEOUT_MS: a loaded host starts processes slowly
    stopGraceMs: Math.max(1, Math.floor(config.shutdownTimeoutMs / 2)),
    toolCallTimeoutMs: config.agentctl.toolCallTimeoutMs,
    logger,
  });
}

/**
 * Every configured executor, by name, behind one registry (main.ts and the conformance tests).
 * `localReplica`: this replica's id when replicas share the database (its local agentctl is its own).
 */
export function createExecutors(
  config: Config,
  logger: Logger,
  events: AgentctlEvents,
  localReplica?: string,
): ExecutorRegistry {
  const log = logger.child({ component: 'executor' });
  const backends = new Map<string, ExecutorBackend>();
  let docker: Dockerode | undefined;
  let backendId: string | undefined;
  const build = (entry: ExecutorEntry): ExecutorBackend => {
    switch (entry.kind) {
      case 'local':
        return new LocalExecutorBackend(localExecutor(config, log), entry.name, events, localReplica);
      case 'remote':
        return new RemoteExecutor({
          endpoint: {
            grpcAddress: entry.grpcAddress,
            mcpBaseUrl: entry.mcpBaseUrl,
            controlToken: entry.controlToken,
            ...(entry.tls === undefined ? {} : { tls: entry.tls }),
          },
          slot: entry.name,
          healthTimeoutMs: config.agentctl.callTimeoutMs,
          workspacesDir: entry.workspacesDir,
          events,
          logger: log.child({ executor: entry.name }),
        });
      case 'docker':
        docker ??= dockerClient(config.executors.dockerHost);
        backendId ??= loadBackendId(join(config.dataDir, BACKEND_ID_FILE));
        return new DockerExecutor({
          docker,
          name: entry.name,
          image: entry.image,
          backendId,
          tokenDir: join(config.dataDir, DOCKER_TOKEN_DIR),
          publishHost: entry.publishHost,
          network: entry.network,
          logLevel: config.logLevel,
          toolCallTimeoutMs: config.agentctl.toolCallTimeoutMs,
          startTimeoutMs: entry.startTimeoutMs,
          tls: entry.tls,
          events,
          logger: log.child({ executor: entry.name }),
        });
      case 'kubernetes':
        return new KubernetesExecutor({
          api: loadKubernetesApi()(entry.namespace),
          profile: entry,
          // Replicas share the profile's backend_id; one backend alone may keep its data dir's id.
          backendId: entry.backendId ?? (backendId ??= loadBackendId(join(config.dataDir, BACKEND_ID_FILE))),
          workspacesDir: config.workspaces.dir,
          logLevel: config.logLevel,
          toolCallTimeoutMs: config.agentctl.toolCallTimeoutMs,
          events,
          logger: log.child({ executor: entry.name }),
        });
    }
  };
  for (const entry of config.executors.entries) backends.set(entry.name, build(entry));
  return new ExecutorRegistry(backends, config.executors.defaultName);
}
