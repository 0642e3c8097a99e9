import { randomUUID } from 'node:crypto';
import { type handleBidiStreamingCall, type ServerDuplexStream, status } from '@grpc/grpc-js';
import {
  type AppError,
  grpcErrorFromAppError,
  isUndecodable,
  undecodableDetails,
  type UndecodableMessage,
  type WireAgentctlMessage,
  type WireBackendMessageOutput,
} from '@kandev/protocol';
import { isAuthorizedCall } from '../grpc/control-auth';
import { endWithStatus } from '../grpc/stream-status';
import type { Logger } from '../logger';
import type { AttachHub, BackendLink } from './attach-hub';

type AttachCall = ServerDuplexStream<WireBackendMessageOutput, WireAgentctlMessage>;

export interface AttachHandlerDeps {
  readonly controlTokenHash: string;
  readonly log: Logger;
}

function linkFor(call: AttachCall): BackendLink {
  return {
    id: randomUUID(),
    send(message) {
      if (call.destroyed || call.writableEnded) throw new Error('the Attach stream is closed');
      call.write(message);
    },
    end(reason: AppError) {
      const { code, details } = grpcErrorFromAppError(reason);
      endWithStatus(call, code, details);
    },
  };
}

/**
 * The Attach rpc: the control token is checked like on every AgentCtl call (UNAUTHENTICATED before
 * anything else), then the stream is handed to the hub. Every way a stream can go away (the backend
 * half-closes, cancels, the connection drops, an error) tells the hub once.
 */
export function createAttachHandler(
  hub: AttachHub,
  deps: AttachHandlerDeps,
): handleBidiStreamingCall<WireBackendMessageOutput, WireAgentctlMessage> {
  return (call) => {
    const log = deps.log.child({ method: 'Attach' });
    if (!isAuthorizedCall(call.metadata, deps.controlTokenHash)) {
      log.warn({ peer: call.getPeer() }, 'unauthenticated call refused');
      endWithStatus(call, status.UNAUTHENTICATED, 'missing or invalid control token');
      return;
    }
    const link = linkFor(call);
    log.debug({ linkId: link.id, peer: call.getPeer() }, 'Attach stream opened');
    hub.opened(link);
    call.on('data', (message: WireBackendMessageOutput | UndecodableMessage) => {
      if (isUndecodable(message))
        endWithStatus(call, status.INVALID_ARGUMENT, undecodableDetails(message, 'an Attach message'));
      else hub.receive(link, message);
    });
    call.on('end', () => {
      hub.closed(link, 'the backend ended the stream');
      if (!call.writableEnded) call.end();
    });
    call.on('cancelled', () => hub.closed(link, 'the stream was cancelled or dropped'));
    call.on('error', () => hub.closed(link, 'stream error'));
    call.on('close', () => hub.closed(link, 'the stream closed'));
  };
}
