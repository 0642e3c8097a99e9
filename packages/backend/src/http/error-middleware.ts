import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { AppError, HTTP_STATUS, isAppError } from '@kandev/protocol';
import type { Logger } from '../logger';
import { issuesOf } from './parse';
import { requestIdOf } from './request-id';

export interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown>; request_id: string };
}

const BodyParserErrorSchema = z.object({ type: z.string(), status: z.number() });

/** Errors thrown by express.json() before any handler runs. */
function fromBodyParser(error: unknown): { appError: AppError; status: number } | undefined {
  const parsed = BodyParserErrorSchema.safeParse(error);
  if (!parsed.success) return undefined;
  const { type, status } = parsed.data;
  if (type === 'entity.parse.failed') {
    return { appError: new AppError('invalid_argument', 'request body is not valid JSON'), status: 400 };
  }
  if (type === 'entity.too.large') {
    return { appError: new AppError('invalid_argument', 'request body is larger than 1 MB'), status: 413 };
  }
  if (status >= 400 && status < 500) {
    return { appError: new AppError('invalid_argument', `request body rejected (${type})`), status: 400 };
  }
  return undefined;
}

function classify(error: unknown): { appError: AppError; status: number } | undefined {
  if (isAppError(error)) return { appError: error, status: HTTP_STATUS[error.code] };
  if (error instanceof z.ZodError) {
    const appError = new AppError('invalid_argument', 'invalid input', { issues: issuesOf(error) });
    return { appError, status: 400 };
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
    const { appError, status } = known ?? {
      appError: new AppError('internal', 'internal error'),
      status: HTTP_STATUS.internal,
    };
    if (known === undefined || status >= 500) {
      logger.error({ err: error, requestId, method: req.method, path: req.path }, 'request failed');
    }
    const body: ErrorBody = { error: { code: appError.code, message: appError.message, request_id: requestId } };
    if (appError.details !== undefined) body.error.details = appError.details;
    res.status(status).json(body);
  };
}

/** Any route nobody serves. */
export function notFoundHandler(req: Request): never {
  throw new AppError('not_found', `no route for ${req.method} ${req.path}`);
}
