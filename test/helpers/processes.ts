import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Cleanup } from './cleanup';
import { testDatabaseEnv } from '@kandev/backend/testing';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const AGENTCTL_MAIN = join(REPO_ROOT, 'packages/agentctl/dist/main.js');
export const BACKEND_MAIN = join(REPO_ROOT, 'packages/backend/dist/main.js');

/** A test control token (agentctl requires at least 32 characters). */
export const TEST_CONTROL_TOKEN = 'test-control-token-0123456789abcdef0123456789';

export interface Daemon<Ready> {
  child: ChildProcess;
  ready: Ready;
  /** Everything the daemon wrote to stderr so far (its logs). */
  logs: () => string;
}

export function tempDir(cleanup: Cleanup, prefix = 'kandev-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.defer(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function captureLines(child: ChildProcess): () => string {
  const lines: string[] = [];
  if (child.stderr !== null) createInterface({ input: child.stderr }).on('line', (line) => lines.push(line));
  return () => lines.slice(-200).join('\n');
}

/** Resolves the first JSON line on stdout with `event: "ready"`; rejects on exit or timeout. */
async function readReadyLine<Ready>(child: ChildProcess, timeoutMs: number, logs: () => string): Promise<Ready> {
  if (child.stdout === null) throw new Error('child has no stdout pipe');
  const lines = createInterface({ input: child.stdout });
  return new Promise<Ready>((resolvePromise, reject) => {
    const timer = setTimeout(() => fail(new Error(`no ready line within ${timeoutMs} ms`)), timeoutMs);
    const onExit = (code: number | null, signal: string | null) =>
      fail(new Error(`exited before ready (code ${code}, signal ${signal})`));
    function fail(error: Error) {
      clearTimeout(timer);
      lines.close();
      child.off('exit', onExit);
      reject(new Error(`${error.message}\n${logs()}`));
    }
    child.once('exit', onExit);
    lines.on('line', (line) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        return;
      }
      if (typeof parsed === 'object' && parsed !== null && (parsed as { event?: unknown }).event === 'ready') {
        clearTimeout(timer);
        child.off('exit', onExit);
        lines.close();
        resolvePromise(parsed as Ready);
      }
    });
  });
}

export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** SIGTERM, wait for exit up to graceMs, then SIGKILL. Resolves the exit code and signal. */
export async function stopProcess(
  child: ChildProcess,
  options: { graceMs: number; signal?: NodeJS.Signals } = { graceMs: 5_000 },
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (!isRunning(child)) return { code: child.exitCode, signal: child.signalCode };
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  child.kill(options.signal ?? 'SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), options.graceMs);
  const [code, signal] = await exited;
  clearTimeout(timer);
  return { code, signal };
}

export async function startDaemon<Ready>(
  cleanup: Cleanup,
  main: string,
  env: Record<string, string>,
  options: { timeoutMs?: number } = {},
): Promise<Daemon<Ready>> {
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'debug', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs = captureLines(child);
  cleanup.defer(() => stopProcess(child, { graceMs: 5_000 }));
  // Only bounds a hang: a daemon starting beside a full CI run has taken more than 15 s.
  const ready = await readReadyLine<Ready>(child, options.timeoutMs ?? 45_000, logs);
  return { child, ready, logs };
}

export interface AgentctlReady {
  event: 'ready';
  grpcPort: number;
  mcpPort: number;
  grpcTransport: 'plaintext' | 'tls' | 'mtls';
  pid: number;
}

export function startAgentctl(cleanup: Cleanup, env: Record<string, string> = {}): Promise<Daemon<AgentctlReady>> {
  return startDaemon<AgentctlReady>(cleanup, AGENTCTL_MAIN, {
    KANDEV_AGENTCTL_TOKEN: TEST_CONTROL_TOKEN,
    KANDEV_AGENTCTL_GRPC_PORT: '0',
    KANDEV_AGENTCTL_MCP_PORT: '0',
    ...env,
  });
}

export interface BackendReady {
  event: 'ready';
  httpPort: number;
  url: string;
  /** The admin token's file (absent when KANDEV_API_TOKEN(_FILE) is set). */
  apiTokenFile?: string;
  agentctl: { pid: number; grpcAddress: string; mcpUrl: string };
}

/** A backend on a fresh data dir with its own local agentctl, every port chosen by the OS. */
export async function startBackend(
  cleanup: Cleanup,
  env: Record<string, string> = {},
): Promise<Daemon<BackendReady> & { dataDir: string; apiToken: string }> {
  const dataDir = env.KANDEV_DATA_DIR ?? tempDir(cleanup);
  // In the -pg projects: the data dir's own PostgreSQL database (the same one again after a restart).
  const database = env.KANDEV_DATABASE_URL === undefined ? await testDatabaseEnv(dataDir, cleanup) : {};
  const daemon = await startDaemon<BackendReady>(cleanup, BACKEND_MAIN, {
    ...database,
    KANDEV_HTTP_PORT: '0',
    KANDEV_AGENTCTL_GRPC_PORT: '0',
    KANDEV_AGENTCTL_MCP_PORT: '0',
    KANDEV_DATA_DIR: dataDir,
    // Most tests attach placeholder repositories (/srv/…, https://github.com/a/b) that cannot be checked
    // out here: the task workspace is still the agent's cwd, only without checkouts. Workspace tests
    // turn checkouts back on.
    KANDEV_WORKSPACE_CHECKOUT: 'false',
    ...env,
  });
  // The local agentctl outlives a killed backend by design; make sure no test leaves one behind.
  cleanup.defer(() => killPid(daemon.ready.agentctl.pid));
  const file = daemon.ready.apiTokenFile;
  const apiToken = env.KANDEV_API_TOKEN ?? readFileSync(file ?? env.KANDEV_API_TOKEN_FILE ?? '', 'utf8').trim();
  return { ...daemon, dataDir, apiToken };
}

export function killPid(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
