import type { ToolCallResult } from '../mcp/tool-call-forwarder';
import { PendingRequests } from './pending-requests';
import { cancelledResult, timedOutResult } from './tool-call-wire';

export interface PendingCallStart {
  readonly callId: string;
  /** The Attach stream the request went out on: only that stream may answer it. */
  readonly linkId: string;
  readonly tool: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (message: string) => void;
}

type CallMeta = Pick<PendingCallStart, 'tool' | 'onProgress'>;

/** Why a pending call ended, for the hub's logs. */
export type Settlement = 'answered' | 'timed_out' | 'cancelled' | 'channel_lost';

/**
 * The calls agentctl has sent to the backend and not yet answered. Each one settles exactly once: by
 * its result, by its INACTIVITY timeout (restarted by every progress message for it), by the agent's
 * abort signal, or at once when its stream is gone. Nothing here ever waits without a deadline.
 */
export class PendingCalls {
  private readonly calls: PendingRequests<ToolCallResult, CallMeta, 'answered' | 'channel_lost'>;

  constructor(
    private readonly timeoutMs: number,
    onSettled: (callId: string, how: Settlement) => void = () => undefined,
  ) {
    this.calls = new PendingRequests(timeoutMs, (callId, how) =>
      onSettled(callId, how === 'aborted' ? 'cancelled' : how),
    );
  }

  get size(): number {
    return this.calls.size;
  }

  has(callId: string): boolean {
    return this.calls.has(callId);
  }

  toolOf(callId: string): string | undefined {
    return this.calls.metaOf(callId)?.tool;
  }

  /** Registers a call; the promise resolves with its result or the reason it ended without one. */
  start(start: PendingCallStart): Promise<ToolCallResult> {
    const endings = { aborted: cancelledResult(start.tool), timedOut: timedOutResult(start.tool, this.timeoutMs) };
    const meta = { tool: start.tool, onProgress: start.onProgress };
    return this.calls.start(start.callId, start.linkId, meta, endings, start.signal);
  }

  /** The backend's answer; ignored (false) for an unknown call or one sent on another stream. */
  settle(callId: string, linkId: string, result: ToolCallResult): boolean {
    return this.calls.settle(callId, linkId, result, 'answered');
  }

  /** The backend is still working: restart the inactivity window and relay the message. */
  progress(callId: string, linkId: string, message: string): boolean {
    const call = this.calls.restartTimeout(callId, linkId);
    if (call === undefined) return false;
    call.onProgress?.(message);
    return true;
  }

  /** A stream is gone: every call it carried fails at once. Returns how many did. */
  failLink(linkId: string, result: (tool: string) => ToolCallResult): number {
    return this.calls.endLink(linkId, (call) => result(call.tool), 'channel_lost');
  }
}
