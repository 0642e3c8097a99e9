// docker-compose (v1, or `docker compose`) on the repository's docker-compose.yml, as a user runs it:
// a unique project name, its own env file with a fresh control token and free host ports, and `down -v`
// in cleanup even when the test failed.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Cleanup } from './cleanup';
import { AGENTCTL_IMAGE, BACKEND_IMAGE, docker, dockerHost } from './container-engine';
import { REPO_ROOT, tempDir } from './processes';

export interface ComposeStack {
  project: string;
  token: string;
  /** The operator API token the env file gives the backend (KANDEV_API_TOKEN). */
  apiToken: string;
  ports: { http: number; grpc: number; mcp: number };
  compose(...args: string[]): { status: number | null; output: string };
  /** False where the engine never runs health checks: the stack then starts without waiting on them. */
  healthchecksRun: boolean;
  /** `config` of docker-compose.yml alone (no test override), as compose resolves it. */
  config(...args: string[]): string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Whether the engine runs containers' health checks. Podman schedules them with systemd timers, so
 * without systemd (these CI machines) every container stays "starting" and `service_healthy` never holds.
 */
async function engineRunsHealthchecks(): Promise<boolean> {
  const { Components } = await docker().version();
  const podman = (Components ?? []).some((component) => component.Name === 'Podman Engine');
  return !podman || existsSync('/run/systemd/system');
}

/** `docker compose` when the CLI has it, else docker-compose v1. */
function composeCommand(): string[] {
  const plugin = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  return plugin.status === 0 ? ['docker', 'compose'] : ['docker-compose'];
}

export async function composeStack(cleanup: Cleanup): Promise<ComposeStack> {
  const project = `kandevtest${randomBytes(4).toString('hex')}`;
  const token = randomBytes(32).toString('base64url');
  const apiToken = `kdv_${randomBytes(32).toString('base64url')}`;
  const ports = { http: await freePort(), grpc: await freePort(), mcp: await freePort() };
  const envFile = join(tempDir(cleanup), 'compose.env');
  writeFileSync(
    envFile,
    [
      `KANDEV_CONTROL_TOKEN=${token}`,
      `KANDEV_API_TOKEN=${apiToken}`,
      `KANDEV_HTTP_PUBLISH_PORT=${ports.http}`,
      `KANDEV_GRPC_PUBLISH_PORT=${ports.grpc}`,
      `KANDEV_MCP_PUBLISH_PORT=${ports.mcp}`,
      `KANDEV_AGENTCTL_IMAGE=${AGENTCTL_IMAGE}`,
      `KANDEV_BACKEND_IMAGE=${BACKEND_IMAGE}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const files = [join(REPO_ROOT, 'docker-compose.yml')];
  const healthchecksRun = await engineRunsHealthchecks();
  if (!healthchecksRun) files.push(join(REPO_ROOT, 'test/fixtures/compose/without-healthchecks.yml'));
  const [command, ...prefix] = composeCommand();
  const compose = (...args: string[]) => {
    const result = spawnSync(
      command!,
      [...prefix, '--project-name', project, '--env-file', envFile, ...files.flatMap((file) => ['-f', file]), ...args],
      { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', DOCKER_HOST: dockerHost() }, timeout: 120_000 },
    );
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };
  cleanup.defer(() => compose('down', '-v', '--remove-orphans'));
  const config = (...args: string[]) => {
    const result = spawnSync(command!, [...prefix, '--env-file', envFile, '-f', files[0]!, 'config', ...args], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', DOCKER_HOST: dockerHost() },
    });
    return `${result.stdout}${result.stderr}`;
  };
  return { project, token, apiToken, ports, compose, healthchecksRun, config };
}
