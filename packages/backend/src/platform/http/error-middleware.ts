import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { AppError, HTTP_STATUS, isAppError } from '@kandev/protocol';
import type { Logger } from '../logger/logger';
import { issuesOf } from './parse';
import { RequestRefusedError } from './request-guard';
import { requestIdOf } from './request-id';
import type { RestErrorCode } from './error-codes';

export interface ErrorBody {
  error: { code: RestErrorCode; message: string; details?: Record<string, unknown>; request_id: string };
}

const BodyParserErrorSchema = z.object({ type: z.string(), status: z.number() });

interface Rendered {
  code: RestErrorCode;
  message: string;
  details?: Record<string, unknown>;
  status: number;
}

const rendered = (appError: AppError, status: number): Rendered => ({
  code: appError.code,
  message: appError.message,
  ...(appError.details === undefined ? {} : { details: appError.details }),
  status,
});

/** Errors thrown by express.json() before any handler runs. */
function fromBodyParser(error: unknown): Rendered | undefined {
  const parsed = BodyParserErrorSchema.safeParse(error);
  if (!parsed.success) return undefined;
  const { type, status } = parsed.data;
  if (type === 'entity.parse.failed') {
    return rendered(new AppError('invalid_argument', 'request body is not valid JSON'), 400);
  }
  if (type === 'entity.too.large') {
    return rendered(new AppError('invalid_argument', 'request body is larger than 1 MB'), 413);
  }
  if (status === 415) {
    // An unsupported charset or content encoding of a JSON body.
    return { code: 'unsupported_media_type', message: `request body rejected (${type})`, status };
  }
  if (status >= 400 && status < 500) {
    return rendered(new AppError('invalid_argument', `request body rejected (${type})`), 400);
  }
  return undefined;
}

/** The router could not percent-decode a path parameter (e.g. `/api/tasks/%ZZ`): the client's mistake. */
function fromBadPath(error: unknown): Rendered | undefined {
  if (!(error instanceof URIError)) return undefined;
  return rendered(new AppError('invalid_argument', 'the request path is not valid percent-encoding'), 400);
}

function classify(error: unknown): Rendered | undefined {
  if (isAppError(error)) return rendered(error, HTTP_STATUS[error.code]);
  const badPath = fromBadPath(error);
  if (badPath !== undefined) return badPath;
  if (error instanceof RequestRefusedError) return { ...error.refusal };
  if (error instanceof z.ZodError) {
    return rendered(new AppError('invalid_argument', 'invalid input', { issues: issuesOf(error) }), 400);
  }
  return fromBodyParser(error);
}

/** The single error renderer: `{ error: { code, message, details?, request_id } }`; never a stack. */
export function createErrorMiddleware(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    const requestId = requestIdOf(res);
    if (res.headersSent) {
      logger.error({ err: error, requestId }, 'error after response started');
      next(error);
      return;
    }
    const known = classify(error);
    const { code, message, details, status } = known ?? rendered(new AppError('internal', 'internal error'), 500);
    if (known === undefined || status >= 500) {
      logger.error({ err: error, requestId, method: req.method, path: req.path }, 'request failed');
    }
    const body: ErrorBody = { error: { code, message, request_id: requestId } };
    if (details !== undefined) body.error.details = details;
    res.status(status).json(body);
  };
}

/** Any route nobody serves. */
export function notFoundHandler(req: Request): never {
  throw new AppError('not_found', `no route for ${req.method} ${req.path}`);
}
