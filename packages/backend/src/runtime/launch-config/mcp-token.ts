import { randomBytes } from 'node:crypto';

/** A fresh per-session MCP bearer: 32 random bytes, base64url (43 characters). */
export function generateMcpToken(): string {
  return randomBytes(32).toString('base64url');
}
