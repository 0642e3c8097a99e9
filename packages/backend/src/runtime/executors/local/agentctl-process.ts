import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { AppError } from '@kandev/protocol';
import { openPrivateAppend, PRIVATE_DIR_MODE } from '../../../platform/files/private-files';
import { type AgentctlReady, parseAgentctlReadyLine } from './agentctl-ready-line';

export interface SpawnAgentctlOptions {
  entry: string;
  env: Record<string, string>;
  /** agentctl's stderr is appended here (a file, not a pipe, so it outlives a crashed backend). */
  logFile: string;
  readyTimeoutMs: number;
}

export interface SpawnedAgentctl {
  child: ChildProcess;
  ready: AgentctlReady;
}

export function isAlive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function openLogFile(path: string): number {
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  return openPrivateAppend(path); // 0600: agentctl's log may quote what agents and the backend sent
}

/** Resolves the ready line; rejects when the child exits first or the deadline passes. */
function readReadyLine(child: ChildProcess, timeoutMs: number): Promise<AgentctlReady> {
  const stdout = child.stdout;
  if (stdout === null) return Promise.reject(new AppError('internal', 'agentctl has no stdout pipe'));
  const lines = createInterface({ input: stdout });
  return new Promise<AgentctlReady>((resolve, reject) => {
    const settle = (action: () => void) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      lines.close();
      stdout.destroy(); // stop reading: agentctl prints exactly one stdout line
      action();
    };
    const timer = setTimeout(() => settle(() => reject(notReady(`no ready line within ${timeoutMs} ms`))), timeoutMs);
    const onExit = (code: number | null, signal: string | null) =>
      settle(() => reject(notReady(`exited before ready (code ${code}, signal ${signal})`)));
    child.once('exit', onExit);
    lines.on('line', (line) => {
      const ready = parseAgentctlReadyLine(line);
      if (ready !== undefined) settle(() => resolve(ready));
    });
  });
}

function notReady(why: string): AppError {
  return new AppError('unavailable', `agentctl did not start: ${why}`);
}

/** Starts agentctl in its own process group and waits for its ready line. */
export async function spawnAgentctl(options: SpawnAgentctlOptions): Promise<SpawnedAgentctl> {
  const logFd = openLogFile(options.logFile);
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [options.entry], {
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', logFd],
    });
  } finally {
    closeSync(logFd); // the child holds its own copy
  }
  let onError: (error: Error) => void = () => undefined;
  const spawnFailed = new Promise<never>((_resolve, reject) => {
    onError = (error) => reject(new AppError('unavailable', `agentctl could not be spawned: ${error.message}`));
    child.once('error', onError);
  });
  try {
    const ready = await Promise.race([readReadyLine(child, options.readyTimeoutMs), spawnFailed]);
    child.unref();
    return { child, ready };
  } catch (error) {
    killGroup(child, 'SIGKILL');
    throw error;
  } finally {
    child.off('error', onError);
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

/** SIGTERM, then SIGKILL to its whole process group after `graceMs`. Resolves once it exited. */
export async function stopAgentctlProcess(child: ChildProcess, graceMs: number): Promise<void> {
  if (!isAlive(child)) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}
