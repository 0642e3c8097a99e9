import * as grpc from '@grpc/grpc-js';
import {
  AppError,
  appErrorFromFailure,
  type WireProviderUpdatesAnswerOutput,
  type WireProviderUpdateResultsOutput,
  type WireProviderUpdatesCall,
} from '@kandev/protocol';

// Provider updates ride one long-lived StreamProviderUpdates stream per agentctl: a unary call's set-up
// on both sides was a large part of the path from a committed change to list_changed, a message on an
// open stream a fraction of it (docs/benchmarks.md). Each call keeps its own deadline and a unary call's
// error mapping, so callers see a call that succeeds or fails on its own.

type Batch = NonNullable<WireProviderUpdatesCall['batch']>;
type Duplex = grpc.ClientDuplexStream<WireProviderUpdatesCall, WireProviderUpdatesAnswerOutput>;

interface Pending {
  resolve(response: WireProviderUpdateResultsOutput): void;
  reject(error: AppError): void;
  timer: NodeJS.Timeout;
}

/** One opened stream and the calls waiting on it: a failure ends both together. */
interface Line {
  stream: Duplex;
  pending: Map<string, Pending>;
}

/** What a call that ran out of time fails with: grpc-js's own deadline error, mapped as for a unary call. */
function deadlineExceeded(): grpc.ServiceError {
  const details = 'Deadline exceeded';
  return Object.assign(new Error(`${grpc.status.DEADLINE_EXCEEDED} DEADLINE_EXCEEDED: ${details}`), {
    code: grpc.status.DEADLINE_EXCEEDED,
    details,
    metadata: new grpc.Metadata(),
  });
}

/** A batch on its stream. */
export interface SentBatch {
  answer: Promise<WireProviderUpdateResultsOutput>;
}

/**
 * grpc-js hands a written message to its HTTP/2 stream through its interceptors and filters, a few
 * promise jobs after `write`: this resolves once every promise job queued so far (and each one those
 * queue) has run. A tick queued from a promise job runs only once the promise job queue is empty.
 */
function handedOn(): Promise<void> {
  return new Promise((resolve) => queueMicrotask(() => process.nextTick(resolve)));
}

export interface ProviderUpdateStreamOptions {
  /** Opens StreamProviderUpdates (with the control token's metadata). */
  open(): Duplex;
  timeoutMs: number;
  /** The unary calls' mapping of a gRPC error. */
  failure(error: grpc.ServiceError): AppError;
}

/**
 * Sends batches on one stream, opened on first use. A stream that fails (an error status, an end, a
 * call past its deadline) fails every call waiting on it the way a unary call would have failed, and
 * is dropped: the next batch opens a new one. A call past its deadline may still have been applied, as
 * with a unary call.
 */
export class ProviderUpdateStream {
  private line: Line | undefined;
  private lastCallId = 0;

  constructor(private readonly options: ProviderUpdateStreamOptions) {}

  /**
   * Writes `batch` on the stream and resolves once grpc-js handed it on to its HTTP/2 stream, with
   * agentctl's answer to come (`answer`): a caller that does not wait for the answer (a dispatched
   * change) answers its own caller only after the update, not before it.
   */
  async send(batch: Batch): Promise<SentBatch> {
    const line = this.line ?? this.start();
    const callId = String(++this.lastCallId);
    const answer = new Promise<WireProviderUpdateResultsOutput>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(line, this.options.failure(deadlineExceeded())), this.options.timeoutMs);
      line.pending.set(callId, { resolve, reject, timer });
      line.stream.write({ call_id: callId, batch });
    });
    await handedOn();
    return { answer };
  }

  /** Cancels the stream; its waiting calls fail unavailable. */
  close(): void {
    if (this.line !== undefined) {
      this.fail(this.line, new AppError('unavailable', 'agentctl StreamProviderUpdates: the client was closed'));
    }
  }

  private start(): Line {
    const line: Line = { stream: this.options.open(), pending: new Map() };
    line.stream.on('data', (answer: WireProviderUpdatesAnswerOutput) => this.answered(line, answer));
    line.stream.on('error', (error: grpc.ServiceError) => this.fail(line, this.options.failure(error)));
    line.stream.on('end', () =>
      this.fail(line, new AppError('unavailable', 'agentctl StreamProviderUpdates: agentctl ended the stream')),
    );
    this.line = line;
    return line;
  }

  private answered(line: Line, answer: WireProviderUpdatesAnswerOutput): void {
    const pending = line.pending.get(answer.call_id);
    if (pending === undefined) return; // its caller already failed (a deadline)
    line.pending.delete(answer.call_id);
    clearTimeout(pending.timer);
    if (answer.batch != null) {
      pending.resolve(answer.batch);
      return;
    }
    pending.reject(appErrorFromFailure(answer.error, 'agentctl StreamProviderUpdates'));
  }

  private fail(line: Line, error: AppError): void {
    if (this.line === line) {
      this.line = undefined;
      line.stream.cancel(); // no-op once it ended; a stream past a deadline may hang: drop it
    }
    for (const pending of line.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    line.pending.clear();
  }
}
