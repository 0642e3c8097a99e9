import type { AgentNoticeCode, PermissionPolicy, SystemPromptDelivery } from '@kandev/protocol';
import type { Logger } from '../logger';
import {
  AcpConnectionClosedError,
  type AcpConnection,
  type AgentCapabilities,
  type McpServerSpec,
  type SessionModes,
  type SessionSetupParams,
} from './acp-connection';
import { describeError } from './agent-exit';
import { extensionMeta } from './agent-extensions';
import { chooseMode } from './session-modes';
import { systemPromptDelivery } from './system-prompt-delivery';

export interface HandshakeRequest {
  /** Absolute. */
  readonly cwd: string;
  /** The session's MCP server, or none when the agent profile does not take MCP servers. */
  readonly mcpServers: readonly McpServerSpec[];
  readonly systemPrompt: string;
  /** Continue this ACP session (resume) when the agent can load sessions. */
  readonly resumeAcpSessionId: string | null;
  readonly permissionPolicy: PermissionPolicy;
}

/** A warning worth the operator's attention (see AgentNotice in the proto). */
export interface HandshakeNotice {
  readonly code: AgentNoticeCode;
  readonly message: string;
}

export interface HandshakeResult {
  readonly acpSessionId: string;
  /** The ACP session was continued with session/load. */
  readonly loaded: boolean;
  readonly capabilities: AgentCapabilities;
  /** What session/new, load and resume carry for this agent (reused to reopen the session). */
  readonly setup: SessionSetupParams;
  readonly modeId: string | null;
  readonly systemPromptDelivery: SystemPromptDelivery;
  readonly notices: readonly HandshakeNotice[];
}

/** The session requests' fields for what the agent advertised. */
export function sessionSetup(capabilities: AgentCapabilities, request: HandshakeRequest): SessionSetupParams {
  const spec = capabilities.systemPrompt && request.systemPrompt.trim().length > 0;
  return {
    cwd: request.cwd,
    mcpServers: request.mcpServers,
    systemPrompt: spec ? request.systemPrompt : null,
    meta: extensionMeta(capabilities.extensions, request.mcpServers[0]?.name ?? null),
  };
}

/**
 * Puts the ACP session in the agent's mode for the policy. A mode the agent refuses fails the start:
 * the policy would not hold. No fitting mode is a notice: the agent's own mode decides what it asks.
 */
export async function applyPolicyMode(
  conn: AcpConnection,
  acpSessionId: string,
  policy: PermissionPolicy,
  modes: SessionModes | null,
): Promise<{ modeId: string | null; notice?: HandshakeNotice }> {
  const choice = chooseMode(policy, modes);
  if (choice.kind === 'none') return { modeId: null };
  if (choice.kind === 'unavailable') {
    const offered = choice.offered.join(', ');
    return {
      modeId: modes?.currentModeId ?? null,
      notice: {
        code: 'mode_unavailable',
        message: `the agent offers no session mode known to fit permission policy ${policy} (it offers ${offered}); its own mode decides what it asks`,
      },
    };
  }
  if (modes?.currentModeId !== choice.modeId) await conn.setMode(acpSessionId, choice.modeId);
  return { modeId: choice.modeId };
}

/**
 * ACP start-up: initialize, then session/load when a resume id is given and the agent advertised
 * loadSession (a load the agent refuses falls back to session/new, with a notice), else session/new;
 * then the mode for the permission policy. An agent that does not advertise HTTP MCP servers still gets
 * the session's server (some agents support more than they advertise); a warning says so.
 */
export async function runHandshake(
  conn: AcpConnection,
  request: HandshakeRequest,
  log: Logger,
): Promise<HandshakeResult> {
  const capabilities = await conn.initialize();
  if (request.mcpServers.length > 0 && !capabilities.mcpHttp) {
    log.warn('the agent does not advertise HTTP MCP servers; offering the session MCP server anyway');
  }
  const setup = sessionSetup(capabilities, request);
  const notices: HandshakeNotice[] = [];
  const resumeId = request.resumeAcpSessionId;
  let opened: { acpSessionId: string; modes: SessionModes | null; loaded: boolean } | undefined;
  if (resumeId !== null && capabilities.loadSession) {
    try {
      opened = { acpSessionId: resumeId, modes: await conn.loadSession(resumeId, setup), loaded: true };
    } catch (err) {
      if (err instanceof AcpConnectionClosedError) throw err;
      notices.push({
        code: 'session_not_loaded',
        message: `the agent could not continue its ACP session (${describeError(err)}); it starts a new one without the earlier conversation`,
      });
    }
  } else if (resumeId !== null) {
    log.info({ resumeAcpSessionId: resumeId }, 'the agent cannot load sessions; starting a new ACP session');
  }
  if (opened === undefined) {
    const created = await conn.newSession(setup);
    opened = { acpSessionId: created.sessionId, modes: created.modes, loaded: false };
  }
  const mode = await applyPolicyMode(conn, opened.acpSessionId, request.permissionPolicy, opened.modes);
  if (mode.notice !== undefined) notices.push(mode.notice);
  return {
    acpSessionId: opened.acpSessionId,
    loaded: opened.loaded,
    capabilities,
    setup,
    modeId: mode.modeId,
    systemPromptDelivery: systemPromptDelivery(capabilities, request.systemPrompt, opened.loaded),
    notices,
  };
}
