import { parseBearer } from '@kandev/protocol';
import type { Request, Response } from 'express';
import type { RuntimeSession } from '../sessions/runtime-session';
import type { SessionRegistry } from '../sessions/session-registry';
import { sendHttpError } from './http-error';

/**
 * Resolves the session named in the URL and checks the request's bearer against THAT session's token
 * hash (constant time), so one session's token never opens another session's endpoint. Writes the
 * refusal (404 unknown session, 401 missing/wrong token) and returns undefined when refused.
 */
export function authenticateSession(
  registry: SessionRegistry,
  req: Request,
  res: Response,
): RuntimeSession | undefined {
  const sessionId = req.params.sessionId;
  const session = typeof sessionId === 'string' ? registry.find(sessionId) : undefined;
  if (session === undefined) {
    sendHttpError(res, 404, 'unknown session');
    return undefined;
  }
  const token = parseBearer(req.headers.authorization);
  if (token === undefined || !session.acceptsToken(token)) {
    res.setHeader('WWW-Authenticate', 'Bearer realm="agentctl-mcp"');
    sendHttpError(res, 401, 'missing or invalid bearer token for this session');
    return undefined;
  }
  return session;
}
