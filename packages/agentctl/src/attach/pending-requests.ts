interface Pending<T, M> {
  readonly linkId: string;
  readonly meta: M;
  resolve(value: T): void;
  timer: NodeJS.Timeout;
  detachAbort(): void;
}

/** What a request resolves with when it ends without the backend's answer. */
export interface Endings<T> {
  /** The signal aborted (the agent cancelled, the session stopped). */
  aborted: T;
  /** No answer (or, for calls, no progress) within the timeout. */
  timedOut: T;
}

/**
 * Requests agentctl sent to the backend on one Attach stream and not yet answered. Each settles
 * exactly once: by the answer from that same stream, by its timeout, by its abort signal, or at once
 * when its stream is gone. Nothing here waits without a deadline. `M` is what a caller keeps per
 * request (e.g. the tool name); `H` names how a request ended, for logs.
 */
export class PendingRequests<T, M, H extends string> {
  private readonly pending = new Map<string, Pending<T, M> & { endings: Endings<T> }>();

  constructor(
    private readonly timeoutMs: number,
    private readonly onSettled: (id: string, how: H | 'timed_out' | 'aborted') => void,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  has(id: string): boolean {
    return this.pending.has(id);
  }

  metaOf(id: string): M | undefined {
    return this.pending.get(id)?.meta;
  }

  /** Registers a request; resolves with the answer or with one of `endings`. */
  start(id: string, linkId: string, meta: M, endings: Endings<T>, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve) => {
      if (signal?.aborted === true) {
        resolve(endings.aborted);
        return;
      }
      const onAbort = () => this.finish(id, endings.aborted, 'aborted');
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        linkId,
        meta,
        endings,
        resolve,
        timer: this.arm(id, endings.timedOut),
        detachAbort: () => signal?.removeEventListener('abort', onAbort),
      });
    });
  }

  /** The answer; ignored (false) for an unknown request or one sent on another stream. */
  settle(id: string, linkId: string, value: T, how: H): boolean {
    if (this.pending.get(id)?.linkId !== linkId) return false;
    return this.finish(id, value, how);
  }

  /** The backend is still working on it: the timeout starts again. The request's meta, or undefined. */
  restartTimeout(id: string, linkId: string): M | undefined {
    const request = this.pending.get(id);
    if (request?.linkId !== linkId) return undefined;
    clearTimeout(request.timer);
    request.timer = this.arm(id, request.endings.timedOut);
    return request.meta;
  }

  /** Ends one request now with `value`. */
  end(id: string, value: T, how: H): boolean {
    return this.finish(id, value, how);
  }

  /** A stream is gone: every request it carried ends now with `value(meta)`. Returns how many did. */
  endLink(linkId: string, value: (meta: M) => T, how: H): number {
    const carried = [...this.pending].filter(([, r]) => r.linkId === linkId);
    for (const [id, request] of carried) this.finish(id, value(request.meta), how);
    return carried.length;
  }

  private arm(id: string, timedOut: T): NodeJS.Timeout {
    const timer = setTimeout(() => this.finish(id, timedOut, 'timed_out'), this.timeoutMs);
    timer.unref();
    return timer;
  }

  private finish(id: string, value: T, how: H | 'timed_out' | 'aborted'): boolean {
    const request = this.pending.get(id);
    if (request === undefined) return false;
    this.pending.delete(id);
    clearTimeout(request.timer);
    request.detachAbort();
    request.resolve(value);
    this.onSettled(id, how);
    return true;
  }
}
