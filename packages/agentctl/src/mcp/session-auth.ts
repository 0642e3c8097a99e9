import { parseBearer, secretMatchesHash, sha256Hex } from '@kandev/protocol';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RuntimeSession } from '../sessions/runtime-session';
import type { SessionRegistry } from '../sessions/session-registry';
import { sendHttpError } from './http-error';

/** One refusal for every failure, so the port never tells which session ids exist. */
export const MCP_UNAUTHORIZED_MESSAGE = 'missing or invalid bearer token for this session';

/** Compared against when the session is unknown, so both refusals cost the same hash and compare. */
const NO_SESSION_HASH = sha256Hex('no session answers to this token');

/** Spends the same hash and constant-time compare an existing session would; never accepts. */
function compareWithoutSession(token: string): false {
  secretMatchesHash(token, NO_SESSION_HASH);
  return false;
}

/**
 * Resolves the session named in the URL (`sessionId`, decoded) and checks the request's bearer against THAT session's token
 * hash (constant time), so one session's token never opens another session's endpoint. An unknown
 * session, a missing token and a wrong token all get the same 401 (status, header and body). Writes the
 * refusal and returns undefined when refused.
 */
export function authenticateSession(
  registry: SessionRegistry,
  sessionId: string | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): RuntimeSession | undefined {
  const session = sessionId === undefined ? undefined : registry.find(sessionId);
  const token = parseBearer(req.headers.authorization) ?? '';
  const accepted = session === undefined ? compareWithoutSession(token) : session.acceptsToken(token);
  if (session === undefined || token === '' || !accepted) {
    res.setHeader('WWW-Authenticate', 'Bearer realm="agentctl-mcp"');
    sendHttpError(res, 401, MCP_UNAUTHORIZED_MESSAGE);
    return undefined;
  }
  return session;
}
