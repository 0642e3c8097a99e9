import { status } from '@grpc/grpc-js';
import {
  type AgentCtlHandlers,
  sessionStateToWire,
  updateOutcomeToWire,
  type WireLaunchConfigOutput,
  type WireUpdateProvidersRequestOutput,
} from '@kandev/protocol';
import type { SessionRegistry } from '../sessions/session-registry';
import { parseLaunchConfig, parseProviderUpdate, parseSessionId } from './request-parsers';
import type { UnaryAdapter } from './unary-adapter';

/** The AgentCtl service: each method parses with the protocol mappers, calls the registry, maps back. */
export function createAgentctlHandlers(registry: SessionRegistry, unary: UnaryAdapter): AgentCtlHandlers {
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
    // Replaced by the Attach hub (tool calls through the backend).
    Attach: (call) =>
      call.destroy(Object.assign(new Error('Attach is not implemented yet'), { code: status.UNIMPLEMENTED })),
  };
}
