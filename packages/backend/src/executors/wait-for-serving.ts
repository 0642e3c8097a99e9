import { setTimeout as delay } from 'node:timers/promises';
import { AGENTCTL_SERVICE_NAME, AppError, checkHealth } from '@kandev/protocol';

export interface WaitForServingOptions {
  timeoutMs: number;
  /** Stop early (e.g. the process died). */
  isAbandoned?: () => boolean;
}

/** Polls the standard gRPC health check with backoff until agentctl reports SERVING or the deadline passes. */
export async function waitForServing(address: string, options: WaitForServingOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let pauseMs = 20;
  let last = 'no answer';
  for (;;) {
    if (options.isAbandoned?.() === true) throw new AppError('unavailable', 'agentctl exited while starting');
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      throw new AppError('unavailable', `agentctl at ${address} not SERVING within ${options.timeoutMs} ms (${last})`);
    }
    const status = await checkHealth(address, AGENTCTL_SERVICE_NAME, { timeoutMs: Math.min(1_000, remaining) });
    if (status === 'SERVING') return;
    last = status ?? 'no answer';
    await delay(Math.min(pauseMs, Math.max(0, deadline - Date.now())));
    pauseMs = Math.min(pauseMs * 2, 250);
  }
}
