import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { isAlive, stopAgentctlProcess } from './agentctl-process';

/** A running agentctl the executor is responsible for: one it spawned, or one it adopted after a restart. */
export interface AgentctlHandle {
  readonly pid: number;
  readonly adopted: boolean;
  isAlive(): boolean;
  /** SIGTERM, then SIGKILL to its process group after graceMs; resolves once it is gone. */
  stop(graceMs: number): Promise<void>;
}

export function spawnedHandle(child: ChildProcess, pid: number): AgentctlHandle {
  return {
    pid,
    adopted: false,
    isAlive: () => isAlive(child),
    stop: (graceMs) => stopAgentctlProcess(child, graceMs),
  };
}

export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * An adopted agentctl's parent (our crashed predecessor) is gone; if whoever inherited it does not reap
 * it, a dead one stays a zombie that signal 0 still finds. Linux says so in /proc; elsewhere: not known.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

/**
 * An agentctl started by an earlier backend process. It is not our child, so its exit cannot be
 * awaited as an event: stopping polls for the pid to disappear, within the grace period.
 */
export function adoptedHandle(pid: number): AgentctlHandle {
  return {
    pid,
    adopted: true,
    isAlive: () => isPidAlive(pid),
    async stop(graceMs) {
      if (!isPidAlive(pid)) return;
      signal(pid, 'SIGTERM');
      const deadline = Date.now() + graceMs;
      while (isPidAlive(pid) && Date.now() < deadline) await delay(25);
      if (isPidAlive(pid)) signal(-pid, 'SIGKILL'); // its own process group (spawned detached)
      while (isPidAlive(pid)) await delay(25);
    },
  };
}
