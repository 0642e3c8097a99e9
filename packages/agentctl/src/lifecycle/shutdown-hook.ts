import type { Logger } from '../logger';

export interface ShutdownStep {
  name: string;
  run: () => Promise<void> | void;
}

export interface ShutdownOptions {
  /** Run in order (the composition root lists them in reverse start order). */
  steps: readonly ShutdownStep[];
  timeoutMs: number;
  log: Logger;
  exit: (code: number) => void;
  signals?: readonly NodeJS.Signals[];
}

/**
 * The first SIGTERM/SIGINT runs the steps in order and exits 0. A step that fails is logged and the
 * rest still run (exit 1). If the whole sequence takes longer than `timeoutMs`, an unref'd timer
 * forces exit 1. Repeated signals while stopping are ignored.
 */
export function installShutdownHook(options: ShutdownOptions): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    stopping ??= runSteps(options);
    return stopping;
  };
  for (const signal of options.signals ?? ['SIGTERM', 'SIGINT']) {
    process.on(signal, () => {
      options.log.info({ signal }, 'shutdown requested');
      void shutdown();
    });
  }
  return shutdown;
}

async function runSteps({ steps, timeoutMs, log, exit }: ShutdownOptions): Promise<void> {
  const timer = setTimeout(() => {
    log.error({ timeoutMs }, 'shutdown timed out; forcing exit');
    exit(1);
  }, timeoutMs);
  timer.unref();
  let failed = false;
  for (const step of steps) {
    try {
      await step.run();
      log.debug({ step: step.name }, 'shutdown step done');
    } catch (err) {
      failed = true;
      log.error({ err, step: step.name }, 'shutdown step failed');
    }
  }
  clearTimeout(timer);
  log.info({ failed }, 'agentctl stopped');
  exit(failed ? 1 : 0);
}
