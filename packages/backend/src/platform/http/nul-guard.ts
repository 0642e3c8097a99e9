import type { RequestHandler } from 'express';
import { AppError } from '@kandev/protocol';
import { holdsNul, NUL_REFUSED } from './parse';

/** %00 in the URL (path or query) or NUL in the JSON body: 400 before any route reads it. */
export const refuseNul: RequestHandler = (req, _res, next) => {
  if (/%00/i.test(req.originalUrl) || req.originalUrl.includes('\u0000') || holdsNul(req.body)) {
    next(new AppError('invalid_argument', `invalid request: ${NUL_REFUSED}`));
    return;
  }
  next();
};
