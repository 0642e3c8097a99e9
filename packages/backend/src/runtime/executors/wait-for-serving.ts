import { setTimeout as delay } from 'node:timers/promises';
import {
  AGENTCTL_SERVICE_NAME,
  type AgentctlTls,
  AppError,
  isTlsFailure,
  probeHealth,
  tlsFailureMessage,
} from '@kandev/protocol';

export interface WaitForServingOptions {
  timeoutMs: number;
  /** The agentctl serves TLS: verify it with these. */
  tls?: AgentctlTls;
  /** Stop early (e.g. the process died). */
  isAbandoned?: () => boolean;
}

/** The launch error for an agentctl whose TLS handshake failed (wrong CA, name, or a refused client cert). */
export class TlsVerificationFailed extends AppError {
  constructor(address: string, details: string) {
    super('unavailable', tlsFailureMessage(address, details));
  }
}

/**
 * Polls the standard gRPC health check with backoff until agentctl reports SERVING or the deadline
 * passes. A TLS handshake failure ends the wait at once: it will not fix itself by retrying.
 */
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
    const probe = await probeHealth(address, AGENTCTL_SERVICE_NAME, {
      timeoutMs: Math.min(1_000, remaining),
      tls: options.tls,
    });
    if ('status' in probe && probe.status === 'SERVING') return;
    if ('error' in probe && options.tls !== undefined && isTlsFailure(probe.error)) {
      throw new TlsVerificationFailed(address, probe.error);
    }
    last = 'status' in probe ? probe.status : probe.error;
    await delay(Math.min(pauseMs, Math.max(0, deadline - Date.now())));
    pauseMs = Math.min(pauseMs * 2, 250);
  }
}
