import {
  AppError,
  type AgentCtlHandlers,
  sessionStateToWire,
  updateOutcomeToWire,
  type WireLaunchConfigOutput,
  type WireUpdateProvidersRequestOutput,
} from '@kandev/protocol';
import type { SessionRegistry } from '../sessions/session-registry';
import { parseLaunchConfig, parseProviderUpdate, parseSessionId } from './request-parsers';
import type { UnaryAdapter } from './unary-adapter';

/**
 * The AgentCtl service: each unary method parses with the protocol mappers, calls the registry, maps
 * back; Attach (the backend's stream for tool calls) is handled by the Attach hub's stream adapter.
 */
export function createAgentctlHandlers(
  registry: SessionRegistry,
  unary: UnaryAdapter,
  attach: AgentCtlHandlers['Attach'],
): AgentCtlHandlers {
  return {
    CreateSession: unary('CreateSession', async (request: WireLaunchConfigOutput) =>
      sessionStateToWire(await registry.create(parseLaunchConfig(request))),
    ),
    UpdateProviders: unary('UpdateProviders', async (request: WireUpdateProvidersRequestOutput) => {
      const result = await registry.updateProviders(parseProviderUpdate(request));
      return {
        outcome: updateOutcomeToWire(result.outcome),
        tools_changed: result.toolsChanged,
        session: sessionStateToWire(result.session),
      };
    }),
    GetSession: unary('GetSession', (request: unknown) => sessionStateToWire(registry.get(parseSessionId(request)))),
    ListSessions: unary('ListSessions', () => ({ sessions: registry.list().map(sessionStateToWire) })),
    StopSession: unary('StopSession', async (request: unknown) => ({
      stopped: await registry.stop(parseSessionId(request)),
    })),
    // Placeholders until the agent runner lands (issue 5).
    Prompt: unary('Prompt', () => {
      throw new AppError('failed_precondition', 'this agentctl runs no agents yet');
    }),
    CancelTurn: unary('CancelTurn', () => ({ cancelled: false, prompt_id: '' })),
    Attach: attach,
  };
}
