import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Logger } from '../logger';
import { type AgentExit, exitFromSpawnError, exitFromStatus } from './agent-exit';

/** One agent process, leader of its own process group. */
export interface AgentProcess {
  /** null when the command could not be spawned. */
  readonly pid: number | null;
  /** The ACP stdio; null when the command could not be spawned. */
  readonly stdio: { readonly stdin: Writable; readonly stdout: Readable } | null;
  /** Resolves once the leader has exited (or could not start). Never rejects. */
  readonly exited: Promise<AgentExit>;
  /**
   * SIGTERM to the whole group, SIGKILL to the group once the leader has exited or `graceMs` passed,
   * whichever comes first; resolves with the leader's exit.
   */
  stop(graceMs: number): Promise<AgentExit>;
  /**
   * SIGKILL to the whole group at once (synchronous: usable while agentctl itself exits). A no-op once
   * the group was cleared after the leader's exit, so a recycled process group id is never hit.
   */
  kill(): void;
}

export interface AgentSpawnSpec {
  readonly command: string;
  readonly args: readonly string[];
  /** Absolute. */
  readonly cwd: string;
  /** The complete environment (see agentEnvironment); nothing is inherited beyond it. */
  readonly env: Readonly<Record<string, string>>;
}

/** Longest agent stderr line kept in agentctl's log. */
const STDERR_LINE_MAX = 2_000;

/** Signals the process group led by `pid`; false when nothing is left in it. */
function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Spawns the agent detached, so it leads its own process group: stopping it reaches every process it
 * started, and signals sent to agentctl's group (a terminal's Ctrl-C) do not reach it. Its stderr lines
 * go to agentctl's log at debug level, truncated.
 */
export function spawnAgentProcess(spec: AgentSpawnSpec, log: Logger): AgentProcess {
  const child = spawn(spec.command, [...spec.args], {
    cwd: spec.cwd,
    env: { ...spec.env },
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const pid = child.pid ?? null;
  let leaderExited = pid === null;
  let groupCleared = pid === null;
  const exited = new Promise<AgentExit>((resolve) => {
    child.once('error', (err) => {
      // 'error' without a pid is a failed spawn; after a spawn it is a failed kill/write: 'exit' follows.
      if (pid === null) resolve(exitFromSpawnError(err, existsSync(spec.cwd) ? undefined : spec.cwd));
      else log.debug({ err }, 'agent process error');
    });
    child.once('exit', (code, signal) => {
      leaderExited = true;
      resolve(exitFromStatus(code, signal));
    });
  });
  // A dead agent must not take agentctl down through EPIPE on its stdin.
  child.stdin.on('error', (err) => log.debug({ err }, 'agent stdin closed'));
  createInterface({ input: child.stderr }).on('line', (line) => {
    const text = line.length > STDERR_LINE_MAX ? `${line.slice(0, STDERR_LINE_MAX)}…` : line;
    log.debug({ line: text }, 'agent stderr');
  });
  let stopping: Promise<AgentExit> | undefined;
  return {
    pid,
    stdio: pid === null ? null : { stdin: child.stdin, stdout: child.stdout },
    exited,
    stop(graceMs) {
      stopping ??= stopGroup(pid, exited, graceMs).finally(() => (groupCleared = true));
      return stopping;
    },
    kill() {
      if (pid === null || groupCleared) return;
      signalGroup(pid, 'SIGKILL');
      if (leaderExited) groupCleared = true;
    },
  };
}

async function stopGroup(pid: number | null, exited: Promise<AgentExit>, graceMs: number): Promise<AgentExit> {
  if (pid === null) return exited;
  signalGroup(pid, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  await Promise.race([exited, graceOver]);
  clearTimeout(timer);
  // The leader is gone (or ignored SIGTERM): whatever is left of its group is an orphan in the making.
  signalGroup(pid, 'SIGKILL');
  return exited;
}
