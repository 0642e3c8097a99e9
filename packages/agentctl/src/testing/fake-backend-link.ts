// Test-only: an Attach stream as the hub sees it, recording what agentctl sends.
import type { AppError, WireAgentctlMessage, WireBackendMessageOutput } from '@kandev/protocol';
import type { BackendLink } from '../attach/attach-hub';

export class FakeLink implements BackendLink {
  readonly sent: WireAgentctlMessage[] = [];
  ended: AppError | undefined;
  broken = false;
  constructor(readonly id: string) {}
  send(message: WireAgentctlMessage): void {
    if (this.broken) throw new Error('closed');
    this.sent.push(message);
  }
  end(reason: AppError): void {
    this.ended = reason;
  }
  /** call_id of the n-th tool_call sent on this link. */
  callId(n = 0): string {
    const id = this.sent.filter((m) => m.tool_call)[n]?.tool_call?.call_id;
    if (id === undefined) throw new Error(`no tool_call #${n}`);
    return id;
  }
}

export const hello = (backendId = 'backend-a'): WireBackendMessageOutput => ({
  kind: 'hello',
  hello: { backend_id: backendId },
});
