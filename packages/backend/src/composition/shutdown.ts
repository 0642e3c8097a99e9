import type { Logger } from '../platform/logger/logger';

export interface ShutdownStep {
  name: string;
  run: () => unknown;
}

export interface ShutdownOptions {
  logger: Logger;
  timeoutMs: number;
  /** Run in order (reverse start order); a failing step is logged and the rest still run. */
  steps: readonly ShutdownStep[];
  exit: (code: number) => void;
}

/** Runs every step once, in order; resolves the exit code (0, or 1 when a step failed). */
export async function runShutdown(logger: Logger, steps: readonly ShutdownStep[]): Promise<number> {
  let code = 0;
  for (const step of steps) {
    try {
      await step.run();
    } catch (err) {
      code = 1;
      logger.error({ err, step: step.name }, 'shutdown step failed');
    }
  }
  return code;
}

/** First SIGTERM/SIGINT runs the ordered steps then exits; a timer forces exit 1 if they hang. */
export function installShutdown(options: ShutdownOptions): void {
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) {
      options.logger.warn({ signal }, 'shutdown already in progress');
      return;
    }
    started = true;
    options.logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      options.logger.error({ timeoutMs: options.timeoutMs }, 'shutdown timed out');
      options.exit(1);
    }, options.timeoutMs).unref();
    void runShutdown(options.logger, options.steps).then((code) => options.exit(code));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
