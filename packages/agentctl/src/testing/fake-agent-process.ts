// Test-only: an agent process without a process. The test decides when and how it exits.
import { PassThrough } from 'node:stream';
import { type AgentExit, exitFromStatus } from '../agents/agent-exit';
import type { AgentProcess } from '../agents/agent-process';

export class FakeAgentProcess implements AgentProcess {
  readonly stdio: AgentProcess['stdio'];
  readonly exited: Promise<AgentExit>;
  /** Grace periods stop() was called with. */
  readonly stops: number[] = [];
  kills = 0;
  private resolveExit: (exit: AgentExit) => void = () => undefined;

  constructor(
    readonly pid: number | null = 4242,
    startFailure?: AgentExit,
  ) {
    this.stdio = pid === null ? null : { stdin: new PassThrough(), stdout: new PassThrough() };
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
    if (startFailure !== undefined) this.resolveExit(startFailure);
  }

  /** The process ends on its own (or because of a signal). */
  exit(code: number | null, signal: string | null = null): void {
    this.resolveExit(exitFromStatus(code, signal));
  }

  /** Behaves like a process that honours SIGTERM. */
  stop(graceMs: number): Promise<AgentExit> {
    this.stops.push(graceMs);
    this.exit(null, 'SIGTERM');
    return this.exited;
  }

  kill(): void {
    this.kills += 1;
  }
}
