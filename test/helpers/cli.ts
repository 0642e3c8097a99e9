// The built `kandev` CLI as a child process: run a command to its end (exit code, stdout, stderr), or
// keep one running (follow, a picker under a pseudo-terminal) and wait for text in its output.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Cleanup } from './cleanup';
import { REPO_ROOT, stopProcess } from './processes';

export const CLI_BIN = join(REPO_ROOT, 'packages/cli/bin/kandev.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliEnv {
  url: string;
  token?: string;
  /** Extra environment (KANDEV_DATA_DIR, say); PATH is always passed. */
  env?: Record<string, string>;
  cwd?: string;
}

function envOf(target: CliEnv): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    KANDEV_URL: target.url,
    ...(target.token === undefined ? {} : { KANDEV_API_TOKEN: target.token }),
    ...target.env,
  };
}

/** Runs `kandev <args>` to its exit, stdin closed. */
export function runCli(target: CliEnv, args: readonly string[]): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    env: envOf(target),
    cwd: target.cwd ?? REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the CLI and parses its stdout as JSON; fails with stderr when it did not exit 0. */
export async function cliJson<T>(target: CliEnv, args: readonly string[]): Promise<T> {
  const result = await runCli(target, ['--json', ...args]);
  if (result.code !== 0) throw new Error(`kandev ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
}

/** A long-running child whose combined output is watched for text. */
export class WatchedProcess {
  private output = '';
  private waiters: { test: (text: string) => boolean; resolve: () => void }[] = [];
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcess) {
    const take = (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.test(this.output)) return true;
        waiter.resolve();
        return false;
      });
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    this.exited = new Promise((resolve) => child.once('close', (code) => resolve(code)));
  }

  /** Everything written so far, with the escape sequences (colours, cursor moves) as sent. */
  text(): string {
    return this.output;
  }

  /**
   * Resolves once the output (so far or later) matches; fails with the output when the child exits
   * first, or after `timeoutMs` (a ceiling on a hang, so the failure shows what was printed).
   */
  waitFor(pattern: RegExp | string, what = String(pattern), timeoutMs = 30_000): Promise<void> {
    // Matched against the text without ANSI escape sequences (a terminal gets colours and cursor moves).
    const test = (raw: string) => {
      const text = stripAnsi(raw);
      return typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
    };
    if (test(this.output)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${what} within ${timeoutMs} ms; output:\n${this.output}`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
      void this.exited.then((code) => {
        clearTimeout(timer);
        if (!test(this.output)) reject(new Error(`exited (${code}) before ${what}; output:\n${this.output}`));
      });
    });
  }

  write(data: string): void {
    this.child.stdin?.write(data);
  }
}

/** Starts `kandev <args>` and keeps it running (stopped at cleanup). */
export function startCli(cleanup: Cleanup, target: CliEnv, args: readonly string[]): WatchedProcess {
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    env: envOf(target),
    cwd: target.cwd ?? REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  cleanup.defer(() => stopProcess(child, { graceMs: 2_000 }));
  return new WatchedProcess(child);
}

/**
 * Starts `kandev <args>` under a real pseudo-terminal (util-linux `script`): the CLI sees a TTY on
 * stdin and stdout, and what the test writes reaches it as typed keys.
 */
export function startCliInTerminal(cleanup: Cleanup, target: CliEnv, args: readonly string[]): WatchedProcess {
  const quoted = [process.execPath, CLI_BIN, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', quoted, '/dev/null'], {
    env: { ...envOf(target), TERM: 'xterm-256color' },
    cwd: target.cwd ?? REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  cleanup.defer(() => stopProcess(child, { graceMs: 2_000 }));
  return new WatchedProcess(child);
}
