import type { ToolCallResult } from '../mcp/tool-call-forwarder';
import { cancelledResult, timedOutResult } from './tool-call-wire';

export interface PendingCallStart {
  readonly callId: string;
  /** The Attach stream the request went out on: only that stream may answer it. */
  readonly linkId: string;
  readonly tool: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (message: string) => void;
}

interface PendingCall extends PendingCallStart {
  resolve(result: ToolCallResult): void;
  timer: NodeJS.Timeout;
  detachAbort(): void;
}

/** Why a pending call ended, for the hub's logs. */
export type Settlement = 'answered' | 'timed_out' | 'cancelled' | 'channel_lost';

/**
 * The calls agentctl has sent to the backend and not yet answered. Each one settles exactly once: by
 * its result, by its INACTIVITY timeout (restarted by every progress message for it), by the agent's
 * abort signal, or at once when its stream is gone. Nothing here ever waits without a deadline.
 */
export class PendingCalls {
  private readonly calls = new Map<string, PendingCall>();

  constructor(
    private readonly timeoutMs: number,
    private readonly onSettled: (callId: string, how: Settlement) => void = () => undefined,
  ) {}

  get size(): number {
    return this.calls.size;
  }

  has(callId: string): boolean {
    return this.calls.has(callId);
  }

  toolOf(callId: string): string | undefined {
    return this.calls.get(callId)?.tool;
  }

  /** Registers a call; the promise resolves with its result or the reason it ended without one. */
  start(start: PendingCallStart): Promise<ToolCallResult> {
    return new Promise<ToolCallResult>((resolve) => {
      if (start.signal?.aborted) {
        resolve(cancelledResult(start.tool));
        return;
      }
      const onAbort = () => this.finish(start.callId, cancelledResult(start.tool), 'cancelled');
      start.signal?.addEventListener('abort', onAbort, { once: true });
      this.calls.set(start.callId, {
        ...start,
        resolve,
        timer: this.arm(start.callId, start.tool),
        detachAbort: () => start.signal?.removeEventListener('abort', onAbort),
      });
    });
  }

  /** The backend's answer; ignored (false) for an unknown call or one sent on another stream. */
  settle(callId: string, linkId: string, result: ToolCallResult): boolean {
    if (this.calls.get(callId)?.linkId !== linkId) return false;
    return this.finish(callId, result, 'answered');
  }

  /** The backend is still working: restart the inactivity window and relay the message. */
  progress(callId: string, linkId: string, message: string): boolean {
    const call = this.calls.get(callId);
    if (call?.linkId !== linkId) return false;
    clearTimeout(call.timer);
    call.timer = this.arm(callId, call.tool);
    call.onProgress?.(message);
    return true;
  }

  /** A stream is gone: every call it carried fails at once. Returns how many did. */
  failLink(linkId: string, result: (tool: string) => ToolCallResult): number {
    const carried = [...this.calls.values()].filter((call) => call.linkId === linkId);
    for (const call of carried) this.finish(call.callId, result(call.tool), 'channel_lost');
    return carried.length;
  }

  private arm(callId: string, tool: string): NodeJS.Timeout {
    const timer = setTimeout(
      () => this.finish(callId, timedOutResult(tool, this.timeoutMs), 'timed_out'),
      this.timeoutMs,
    );
    timer.unref();
    return timer;
  }

  private finish(callId: string, result: ToolCallResult, how: Settlement): boolean {
    const call = this.calls.get(callId);
    if (call === undefined) return false;
    this.calls.delete(callId);
    clearTimeout(call.timer);
    call.detachAbort();
    call.resolve(result);
    this.onSettled(callId, how);
    return true;
  }
}
