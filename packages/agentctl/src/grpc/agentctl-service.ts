import {
  type AgentCtlHandlers,
  sessionStateToWire,
  turnRecordToWire,
  type WireLaunchConfigOutput,
  type WireRestoreSessionRequestOutput,
} from '@kandev/protocol';
import type { SessionRegistry } from '../sessions/session-registry';
import { parseLaunchConfig, parseListSessions, parsePrompt, parseRestore, parseSessionId } from './request-parsers';
import type { UnaryAdapter } from './unary-adapter';

/**
 * The AgentCtl service: each unary method parses with the protocol mappers, calls the registry, maps
 * back; the streams come ready-made: Attach (the backend's stream for tool calls and session events,
 * the Attach hub's adapter) and StreamProviderUpdates (grpc/provider-update-stream.ts), the only way
 * a session's provider set changes.
 */
export function createAgentctlHandlers(
  registry: SessionRegistry,
  unary: UnaryAdapter,
  streams: Pick<AgentCtlHandlers, 'Attach' | 'StreamProviderUpdates'>,
): AgentCtlHandlers {
  return {
    CreateSession: unary('CreateSession', async (request: WireLaunchConfigOutput) =>
      sessionStateToWire(await registry.create(parseLaunchConfig(request))),
    ),
    RestoreSession: unary('RestoreSession', (request: WireRestoreSessionRequestOutput) =>
      sessionStateToWire(registry.restore(parseRestore(request))),
    ),
    GetSession: unary('GetSession', (request: unknown) => sessionStateToWire(registry.get(parseSessionId(request)))),
    ListSessions: unary('ListSessions', (request: unknown) => {
      const { pageSize, afterSessionId } = parseListSessions(request);
      const { sessions, more } = registry.page(afterSessionId, pageSize);
      return { sessions: sessions.map(sessionStateToWire), more };
    }),
    StopSession: unary('StopSession', async (request: unknown) => ({
      stopped: await registry.stop(parseSessionId(request)),
    })),
    Prompt: unary('Prompt', (request: unknown) => {
      const { turn, duplicate } = registry.prompt(parsePrompt(request));
      return { turn: turnRecordToWire(turn), duplicate };
    }),
    CancelTurn: unary('CancelTurn', (request: unknown) => {
      const { cancelled, promptId } = registry.cancelTurn(parseSessionId(request));
      return { cancelled, prompt_id: promptId ?? '' };
    }),
    ...streams,
  };
}
