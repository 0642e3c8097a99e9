import { PendingRequests } from './pending-requests';

/** How a forwarded permission request ended, for the hub's logs. */
export type PermissionSettlement = 'answered' | 'timed_out' | 'aborted' | 'channel_lost';

/**
 * Permission requests agentctl forwarded to the backend (policy ask) and not yet answered: an option
 * id, or null (reject) when the stream is gone, the session stops (the signal) or the safety timeout
 * fires. The timeout is agentctl's own and longer than the backend's, so normally the backend's expiry
 * answers first; it only guards against a silent backend.
 */
export class PendingPermissions {
  private readonly requests: PendingRequests<string | null, null, 'answered' | 'channel_lost'>;

  constructor(timeoutMs: number, onSettled: (requestId: string, how: PermissionSettlement) => void = () => undefined) {
    this.requests = new PendingRequests(timeoutMs, onSettled);
  }

  get size(): number {
    return this.requests.size;
  }

  has(requestId: string): boolean {
    return this.requests.has(requestId);
  }

  start(requestId: string, linkId: string, signal: AbortSignal): Promise<string | null> {
    return this.requests.start(requestId, linkId, null, { aborted: null, timedOut: null }, signal);
  }

  /** The backend's decision; ignored (false) for an unknown request or one sent on another stream. */
  settle(requestId: string, linkId: string, optionId: string | null): boolean {
    return this.requests.settle(requestId, linkId, optionId, 'answered');
  }

  /** Rejects one request at once (its message could not be written). */
  fail(requestId: string): boolean {
    return this.requests.end(requestId, null, 'channel_lost');
  }

  /** A stream is gone: every request it carried rejects now. Returns how many did. */
  failLink(linkId: string): number {
    return this.requests.endLink(linkId, () => null, 'channel_lost');
  }
}
