import { type handleBidiStreamingCall, type ServerDuplexStream, status } from '@grpc/grpc-js';
import {
  isAppError,
  isUndecodable,
  undecodableDetails,
  type UndecodableMessage,
  type WireProviderUpdatesAnswer,
  type WireProviderUpdatesCallOutput,
} from '@kandev/protocol';
import type { Logger } from '../logger';
import type { AgentctlMetrics } from '../metrics/agentctl-metrics';
import type { SessionRegistry } from '../sessions/session-registry';
import { isAuthorizedCall } from './control-auth';
import { endWithStatus, isStreamOpen } from './stream-status';
import { updateBatch } from './provider-updates';

// Provider updates ride a stream, not unary calls: a unary call costs its set-up on both sides (a new
// HTTP/2 stream, headers, metadata, the handler's dispatch) on the path from a committed change to
// list_changed; a message on an open stream costs a fraction of that (docs/benchmarks.md).

const SHUTTING_DOWN = 'agentctl is shutting down';

type ProviderUpdatesStream = ServerDuplexStream<WireProviderUpdatesCallOutput, WireProviderUpdatesAnswer>;

export interface ProviderUpdateStreamDeps {
  readonly controlTokenHash: string;
  readonly log: Logger;
  readonly metrics?: Pick<AgentctlMetrics, 'updateProviders'>;
}

/** One open stream and the promise of the answers to every call it carried so far. */
interface OpenStream {
  call: ProviderUpdatesStream;
  answered: Promise<void>;
}

/**
 * StreamProviderUpdates: the control token is checked once, when the stream opens. Each call's batch
 * is applied (updateBatch), one call after another in arrival order, and answered with its call_id; a
 * call without a batch is answered invalid_argument. A message that does not decode has no call_id to
 * answer: the stream ends INVALID_ARGUMENT. When the backend half-closes, the stream ends
 * once the calls before it were answered. `close()` (shutdown) ends every open stream UNAVAILABLE once
 * its calls were answered, and refuses new ones: the server's graceful shutdown waits for open calls.
 */
export class ProviderUpdateStreams {
  private readonly open = new Set<OpenStream>();
  private closing = false;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly deps: ProviderUpdateStreamDeps,
  ) {}

  readonly handler: handleBidiStreamingCall<WireProviderUpdatesCallOutput, WireProviderUpdatesAnswer> = (call) => {
    if (!isAuthorizedCall(call.metadata, this.deps.controlTokenHash)) {
      this.deps.log.warn({ method: 'StreamProviderUpdates', peer: call.getPeer() }, 'unauthenticated call refused');
      endWithStatus(call, status.UNAUTHENTICATED, 'missing or invalid control token');
      return;
    }
    if (this.closing) {
      endWithStatus(call, status.UNAVAILABLE, SHUTTING_DOWN);
      return;
    }
    const stream: OpenStream = { call, answered: Promise.resolve() };
    this.open.add(stream);
    call.on('close', () => this.open.delete(stream));
    call.on('data', (message: WireProviderUpdatesCallOutput | UndecodableMessage) => {
      if (isUndecodable(message)) {
        endWithStatus(call, status.INVALID_ARGUMENT, undecodableDetails(message, 'a StreamProviderUpdates message'));
        return;
      }
      stream.answered = stream.answered.then(async () => {
        const reply = await this.answer(message);
        if (isStreamOpen(call)) call.write(reply);
      });
    });
    call.on('end', () => {
      void stream.answered.then(() => {
        if (isStreamOpen(call)) call.end();
      });
    });
  };

  async close(): Promise<void> {
    this.closing = true;
    const open = [...this.open];
    this.open.clear();
    await Promise.all(
      open.map(async ({ call, answered }) => {
        await answered;
        endWithStatus(call, status.UNAVAILABLE, SHUTTING_DOWN);
      }),
    );
  }

  private async answer(message: WireProviderUpdatesCallOutput): Promise<WireProviderUpdatesAnswer> {
    const { call_id, batch } = message;
    if (batch === null) return { call_id, error: { code: 'invalid_argument', message: 'a call without a batch' } };
    try {
      return { call_id, batch: await updateBatch(this.registry, batch, this.deps.metrics) };
    } catch (error) {
      if (isAppError(error)) return { call_id, error: { code: error.code, message: error.message } };
      this.deps.log.error({ err: error, method: 'StreamProviderUpdates' }, 'call failed');
      return { call_id, error: { code: 'internal', message: 'internal error' } };
    }
  }
}
