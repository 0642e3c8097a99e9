import type { NextFunction, Request, Response } from 'express';
import { judgeRequest, type Refusal, type RequestAccess } from './request-access';

/** A request refused before any route saw it (Host, Origin, media type); rendered by the error middleware. */
export class RequestRefusedError extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
    this.name = 'RequestRefusedError';
  }
}

/** Runs before the body parser, so a refused body is never read. */
export function requestGuard(access: RequestAccess) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const refusal = judgeRequest(
      {
        method: req.method,
        path: req.path,
        host: req.headers.host,
        origin: req.headers.origin,
        contentType: req.headers['content-type'],
        contentLength: req.headers['content-length'],
        transferEncoding: req.headers['transfer-encoding'],
        localPort: req.socket.localPort,
      },
      access,
    );
    next(refusal === undefined ? undefined : new RequestRefusedError(refusal));
  };
}
