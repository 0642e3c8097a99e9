/** How a forwarded permission request ended, for the hub's logs. */
export type PermissionSettlement = 'answered' | 'timed_out' | 'aborted' | 'channel_lost';

interface PendingPermission {
  readonly linkId: string;
  resolve(optionId: string | null): void;
  timer: NodeJS.Timeout;
  detachAbort(): void;
}

/**
 * Permission requests agentctl forwarded to the backend (policy ask) and not yet answered. Each settles
 * exactly once: by the backend's decision, or with null (reject) when its stream is gone, the session
 * stops (the signal), or the safety timeout fires. The timeout is agentctl's own and longer than the
 * backend's, so normally the backend's expiry answers first; it only guards against a silent backend.
 */
export class PendingPermissions {
  private readonly requests = new Map<string, PendingPermission>();

  constructor(
    private readonly timeoutMs: number,
    private readonly onSettled: (requestId: string, how: PermissionSettlement) => void = () => undefined,
  ) {}

  get size(): number {
    return this.requests.size;
  }

  has(requestId: string): boolean {
    return this.requests.has(requestId);
  }

  start(requestId: string, linkId: string, signal: AbortSignal): Promise<string | null> {
    return new Promise<string | null>((resolve) => {
      if (signal.aborted) {
        resolve(null);
        return;
      }
      const onAbort = () => this.finish(requestId, null, 'aborted');
      signal.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => this.finish(requestId, null, 'timed_out'), this.timeoutMs);
      timer.unref();
      this.requests.set(requestId, {
        linkId,
        resolve,
        timer,
        detachAbort: () => signal.removeEventListener('abort', onAbort),
      });
    });
  }

  /** The backend's decision; ignored (false) for an unknown request or one sent on another stream. */
  settle(requestId: string, linkId: string, optionId: string | null): boolean {
    if (this.requests.get(requestId)?.linkId !== linkId) return false;
    return this.finish(requestId, optionId, 'answered');
  }

  /** Rejects one request at once (its message could not be written). */
  fail(requestId: string): boolean {
    return this.finish(requestId, null, 'channel_lost');
  }

  /** A stream is gone: every request it carried rejects now. Returns how many did. */
  failLink(linkId: string): number {
    const carried = [...this.requests].filter(([, r]) => r.linkId === linkId).map(([id]) => id);
    for (const id of carried) this.finish(id, null, 'channel_lost');
    return carried.length;
  }

  private finish(requestId: string, optionId: string | null, how: PermissionSettlement): boolean {
    const request = this.requests.get(requestId);
    if (request === undefined) return false;
    this.requests.delete(requestId);
    clearTimeout(request.timer);
    request.detachAbort();
    request.resolve(optionId);
    this.onSettled(requestId, how);
    return true;
  }
}
