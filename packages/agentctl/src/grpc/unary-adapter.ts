import { type handleUnaryCall, status } from '@grpc/grpc-js';
import { grpcErrorFromAppError, isAppError, isUndecodable, undecodableDetails } from '@kandev/protocol';
import type { Logger } from '../logger';
import { isAuthorizedCall } from './control-auth';

export interface UnaryAdapterDeps {
  readonly controlTokenHash: string;
  readonly log: Logger;
}

/** Wraps one AgentCtl method: authenticate -> parse + run -> reply. */
export type UnaryAdapter = <Req, Res>(
  method: string,
  run: (request: Req) => Res | Promise<Res>,
) => handleUnaryCall<Req, Res>;

/**
 * The single adapter every AgentCtl handler goes through. A missing or wrong control token is
 * UNAUTHENTICATED before anything runs; bytes that did not decode are INVALID_ARGUMENT; an AppError maps through GRPC_STATUS; anything else is
 * logged and answered INTERNAL without details.
 */
export function createUnaryAdapter(deps: UnaryAdapterDeps): UnaryAdapter {
  return <Req, Res>(method: string, run: (request: Req) => Res | Promise<Res>): handleUnaryCall<Req, Res> =>
    (call, callback) => {
      const log = deps.log.child({ method });
      if (!isAuthorizedCall(call.metadata, deps.controlTokenHash)) {
        log.warn({ peer: call.getPeer() }, 'unauthenticated call refused');
        callback({ code: status.UNAUTHENTICATED, details: 'missing or invalid control token' });
        return;
      }
      if (isUndecodable(call.request)) {
        log.debug({ reason: call.request.reason }, 'undecodable request refused');
        callback({ code: status.INVALID_ARGUMENT, details: undecodableDetails(call.request, `the ${method} request`) });
        return;
      }
      Promise.resolve()
        .then(() => run(call.request))
        .then(
          (response) => callback(null, response),
          (err: unknown) => {
            if (isAppError(err)) {
              log.debug({ code: err.code, reason: err.message }, 'call refused');
              callback(grpcErrorFromAppError(err));
              return;
            }
            log.error({ err }, 'call failed');
            callback({ code: status.INTERNAL, details: 'internal error' });
          },
        );
    };
}
