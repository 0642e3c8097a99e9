// The container engine for the docker-executor and compose tests: the Docker Engine API at DOCKER_HOST
// (Podman's compatible socket on machines without Docker). Every container a test causes is labelled;
// the helpers here find them and remove them, also when the test failed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Dockerode from 'dockerode';
import type { Cleanup } from './cleanup';
import { waitUntil } from './wait';

export const AGENTCTL_IMAGE = process.env.KANDEV_TEST_AGENTCTL_IMAGE ?? 'kandev/agentctl:dev';
export const BACKEND_IMAGE = process.env.KANDEV_TEST_BACKEND_IMAGE ?? 'kandev/backend:dev';
export const MANAGED = 'dev.kandev.managed-by=kandev-docker-executor';

/** DOCKER_HOST as the tests were given it (the backend under test gets the same). */
export function dockerHost(): string {
  const host = process.env.DOCKER_HOST;
  if (host === undefined || host.length === 0) throw new Error('DOCKER_HOST is not set: run through .ci/run');
  return host;
}

export function docker(): Dockerode {
  const url = new URL(dockerHost());
  if (url.protocol === 'unix:') return new Dockerode({ socketPath: url.pathname });
  return new Dockerode({ host: url.hostname, port: Number(url.port), protocol: 'http' });
}

/** The id a backend on this data dir labels its containers with (written at its boot). */
export function backendIdOf(dataDir: string): string {
  return readFileSync(join(dataDir, 'backend-id'), 'utf8').trim();
}

export async function containersWith(labels: string[], all = true): Promise<Dockerode.ContainerInfo[]> {
  return docker().listContainers({ all, filters: { label: labels } });
}

/** Removes every container with these labels (force); used in cleanup, so it never throws. */
export async function removeContainersWith(labels: string[]): Promise<void> {
  try {
    for (const info of await containersWith(labels)) {
      await docker()
        .getContainer(info.Id)
        .remove({ force: true, v: true })
        .catch(() => undefined);
    }
  } catch {
    // the engine is gone: nothing left to remove through it
  }
}

/** After the test (even a failed one): no container of the backend on `dataDir` survives. */
export function removeBackendContainersAfter(cleanup: Cleanup, dataDir: string): void {
  cleanup.defer(async () => {
    let id: string;
    try {
      id = backendIdOf(dataDir);
    } catch {
      return; // the backend never booted far enough to label anything
    }
    await removeContainersWith([MANAGED, `dev.kandev.backend-id=${id}`]);
  });
}

/** The one running agentctl container of a session and how to reach it from this host. */
export async function sessionContainer(
  dataDir: string,
  sessionId: string,
): Promise<{ id: string; name: string; grpcAddress: string; controlToken: string; info: Dockerode.ContainerInfo }> {
  const found = await containersWith([MANAGED, `dev.kandev.session-id=${sessionId}`], false);
  if (found.length !== 1) throw new Error(`expected one running container for ${sessionId}, found ${found.length}`);
  const info = found[0]!;
  const grpc = info.Ports.find((port) => port.PrivatePort === 7421);
  if (grpc === undefined) throw new Error('the gRPC port is not published');
  expect(grpc.IP).toBe('127.0.0.1');
  const name = (info.Names[0] ?? '').replace(/^\//, '');
  const controlToken = readFileSync(join(dataDir, 'docker-agentctl', `${name}.token`), 'utf8').trim();
  return { id: info.Id, name, grpcAddress: `127.0.0.1:${grpc.PublicPort}`, controlToken, info };
}

export async function waitForNoContainers(labels: string[], logs: () => string): Promise<void> {
  await waitUntil(async () => (await containersWith(labels)).length === 0, {
    timeoutMs: 15_000,
    intervalMs: 100,
    logs,
    what: `no containers labelled ${labels.join(' ')}`,
  });
}
