import type * as grpc from '@grpc/grpc-js';
import { controlTokenMetadata, type WireAgentctlMessageOutput, type WireBackendMessage } from '@kandev/protocol';
import type { AgentCtlClient } from '@kandev/protocol';
import type { Cleanup } from './cleanup';

/** How a hand-made Attach stream ended: the gRPC status agentctl sent. */
export interface AttachEnd {
  code: grpc.status;
  details: string;
}

export interface HandMadeAttach {
  send(message: WireBackendMessage): void;
  /** The next message from agentctl (rejects when the stream ends first or nothing comes in time). */
  next(timeoutMs?: number): Promise<WireAgentctlMessageOutput>;
  /** Resolves with the final status once agentctl ends the stream. */
  ended: Promise<AttachEnd>;
  cancel(): void;
}

/** Opens Attach as a backend would (or as an impostor): `token: null` sends no authorization. */
export function openAttach(cleanup: Cleanup, client: AgentCtlClient, token: string | null): HandMadeAttach {
  const call = token === null ? client.Attach() : client.Attach(controlTokenMetadata(token));
  cleanup.defer(() => call.cancel());
  const queue: WireAgentctlMessageOutput[] = [];
  const waiters: ((message: WireAgentctlMessageOutput | Error) => void)[] = [];
  let endError: Error | undefined;
  call.on('data', (message: WireAgentctlMessageOutput) => {
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  const ended = new Promise<AttachEnd>((resolve) => {
    call.on('status', (status: grpc.StatusObject) => {
      endError = new Error(`Attach ended: ${status.code} ${status.details}`);
      for (const waiter of waiters.splice(0)) waiter(endError);
      resolve({ code: status.code, details: status.details });
    });
  });
  call.on('error', () => undefined); // the status event carries the outcome
  return {
    send: (message) => call.write(message),
    next(timeoutMs = 5_000) {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      if (endError) return Promise.reject(endError);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no Attach message within ${timeoutMs} ms`)), timeoutMs);
        waiters.push((message) => {
          clearTimeout(timer);
          if (message instanceof Error) reject(message);
          else resolve(message);
        });
      });
    },
    ended,
    cancel: () => call.cancel(),
  };
}
