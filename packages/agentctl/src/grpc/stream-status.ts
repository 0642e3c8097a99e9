import type { ServerDuplexStream, status } from '@grpc/grpc-js';

/** True while a server stream can still be written to and given a status. */
export function isStreamOpen(call: ServerDuplexStream<unknown, unknown>): boolean {
  return !call.cancelled && !call.destroyed && !call.writableEnded;
}

/** Ends a server stream with a status: grpc-js turns an 'error' event into the call's final status. */
export function endWithStatus(call: ServerDuplexStream<unknown, unknown>, code: status, details: string): void {
  if (isStreamOpen(call)) call.emit('error', { code, details });
}
