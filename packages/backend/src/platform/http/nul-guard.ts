import type { RequestHandler } from 'express';
import { AppError, NUL_REFUSED } from '@kandev/protocol';
import { refusedText } from './parse';

/**
 * %00 in the URL (path or query), or NUL or a lone surrogate anywhere in the JSON body (JSON.parse
 * turns a "\ud800" escape into one): 400 before any route reads it.
 */
export const refuseNul: RequestHandler = (req, _res, next) => {
  const inUrl = /%00/i.test(req.originalUrl) || req.originalUrl.includes('\u0000') ? NUL_REFUSED : undefined;
  const reason = inUrl ?? refusedText(req.body);
  if (reason !== undefined) {
    next(new AppError('invalid_argument', `invalid request: ${reason}`));
    return;
  }
  next();
};
