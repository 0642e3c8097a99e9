import {
  AppError,
  isBlankText,
  isSessionId,
  type LaunchConfig,
  launchConfigFromWire,
  providersFromWire,
  revisionFromWire,
  type WireLaunchConfigOutput,
  type WireProviderUpdateOutput,
  type WireRestoreSessionRequestOutput,
} from '@kandev/protocol';
import { z } from 'zod';
import type { PromptRequest, ProviderUpdate } from '../sessions/session-registry';

// gRPC request edge: wire objects in, typed domain values out (or AppError invalid_argument).

const SessionIdRequestSchema = z.object({ session_id: z.string().min(1, 'session_id is required') });

const ListSessionsRequestSchema = z.object({
  page_size: z.number().int().min(0).max(100_000),
  after_session_id: z.string().max(256),
});

const requiredString = (field: string) => z.string({ error: `${field} is required` }).min(1, `${field} is required`);

const PromptRequestSchema = z.object({
  session_id: requiredString('session_id'),
  prompt_id: requiredString('prompt_id'),
  // The backend's doors use the same rule, so a prompt this refuses is never queued there.
  text: requiredString('text').refine((text) => !isBlankText(text), 'text must not be blank'),
});

/**
 * CreateSession: the real MCP token is required here (and only here). The session id becomes part of
 * the MCP URL and of log lines, so only a UUID registers a session (never echoed back: it may be huge).
 */
export function parseLaunchConfig(wire: WireLaunchConfigOutput): LaunchConfig {
  const config = launchConfigFromWire(wire, { requireToken: true });
  if (!isSessionId(config.sessionId)) throw new AppError('invalid_argument', 'session_id must be a UUID');
  return config;
}

/** What RestoreSession registers: a stored (token-less) MCP-only config and the token's SHA-256. */
export interface SessionRestore {
  readonly config: LaunchConfig;
  readonly mcpTokenHash: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * RestoreSession: the config as the backend stored it (no token) and the token's SHA-256 instead. Only
 * an MCP-only session: an agent needs the real token to reach its endpoint, so it has to be resumed.
 */
export function parseRestore(wire: WireRestoreSessionRequestOutput): SessionRestore {
  if (wire.config === null) throw new AppError('invalid_argument', 'config is required');
  const config = launchConfigFromWire(wire.config, { requireToken: false });
  if (!isSessionId(config.sessionId)) throw new AppError('invalid_argument', 'session_id must be a UUID');
  if (config.mcpToken.length > 0) throw new AppError('invalid_argument', 'config.mcp_token must be empty');
  if (!SHA256_HEX.test(wire.mcp_token_sha256)) {
    throw new AppError('invalid_argument', 'mcp_token_sha256 must be 64 lowercase hex characters');
  }
  if (config.agent !== null) {
    throw new AppError('invalid_argument', 'only an MCP-only session can be restored; resume a session with an agent');
  }
  return { config, mcpTokenHash: wire.mcp_token_sha256 };
}

/** One update of a StreamProviderUpdates call: unknown provider numbers are dropped (fail closed). */
export function parseProviderUpdate(wire: WireProviderUpdateOutput): ProviderUpdate {
  return {
    sessionId: parseSessionId(wire),
    providers: providersFromWire(wire.providers),
    revision: revisionFromWire(wire.revision),
  };
}

export function parseSessionId(wire: unknown): string {
  const parsed = SessionIdRequestSchema.safeParse(wire);
  if (!parsed.success) throw new AppError('invalid_argument', 'session_id is required');
  return parsed.data.session_id;
}

/** Prompt: session, prompt id (the idempotency key) and non-blank text are all required. */
export function parsePrompt(wire: unknown): PromptRequest {
  const parsed = PromptRequestSchema.safeParse(wire);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => issue.message);
    throw new AppError('invalid_argument', problems.join('; '), { problems });
  }
  return { sessionId: parsed.data.session_id, promptId: parsed.data.prompt_id, text: parsed.data.text };
}

/** ListSessions: a page of at most `pageSize` sessions (0: all) after `afterSessionId` ('' : from the start). */
export function parseListSessions(wire: unknown): { pageSize: number; afterSessionId: string } {
  const parsed = ListSessionsRequestSchema.safeParse(wire);
  if (!parsed.success)
    throw new AppError('invalid_argument', 'page_size must be 0..100000, after_session_id a session id');
  return { pageSize: parsed.data.page_size, afterSessionId: parsed.data.after_session_id };
}
