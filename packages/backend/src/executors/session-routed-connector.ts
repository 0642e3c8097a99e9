import { AppError, type LaunchConfig, type Provider } from '@kandev/protocol';
import type { AgentctlApi, AgentctlConnector } from './agentctl-client';
import type { AgentctlDirectory } from './agentctl-directory';
import type { AgentctlEndpoint, SessionPlacement } from './executor';

export interface SessionRoutedConnectorDeps {
  /** The real per-endpoint clients. */
  clients: AgentctlConnector;
  directory: AgentctlDirectory;
  findSession(sessionId: string): Promise<SessionPlacement | undefined>;
}

/**
 * Hands out clients whose per-session calls go to the agentctl the session was started on (its row's
 * executor and address), whatever endpoint the caller asked with: code written for one agentctl
 * (`executor.current()`, then a call by session id) stays right with several. CreateSession and
 * ListSessions go to the endpoint asked for. A session whose agentctl is gone gets `not_found`: that
 * agentctl no longer holds it.
 */
export class SessionRoutedConnector implements AgentctlConnector {
  constructor(private readonly deps: SessionRoutedConnectorDeps) {}

  clientFor(endpoint: AgentctlEndpoint): AgentctlApi {
    const direct = () => this.deps.clients.clientFor(endpoint);
    const routed = async (sessionId: string): Promise<AgentctlApi> => {
      const session = await this.deps.findSession(sessionId);
      if (session === undefined || session.agentctlAddress === null) return direct();
      const own = this.deps.directory.endpointFor(session);
      if (own === undefined) {
        throw new AppError(
          'not_found',
          `the agentctl session ${sessionId} ran on (${session.agentctlAddress}) is gone`,
        );
      }
      return this.deps.clients.clientFor(own);
    };
    return {
      createSession: (config: LaunchConfig) => direct().createSession(config),
      listSessions: () => direct().listSessions(),
      updateProviders: async (sessionId: string, providers: readonly Provider[], revision: number) =>
        (await routed(sessionId)).updateProviders(sessionId, providers, revision),
      getSession: async (sessionId: string) => (await routed(sessionId)).getSession(sessionId),
      stopSession: async (sessionId: string) => (await routed(sessionId)).stopSession(sessionId),
      prompt: async (sessionId: string, promptId: string, text: string) =>
        (await routed(sessionId)).prompt(sessionId, promptId, text),
      cancelTurn: async (sessionId: string) => (await routed(sessionId)).cancelTurn(sessionId),
    };
  }
}
