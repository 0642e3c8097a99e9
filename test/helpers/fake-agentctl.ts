// agentctl in miniature for in-process backend tests: the configs it holds, every call it got, the
// revision rule of the real one (a push at or below the held revision is stale), and an injectable
// failure for refresh/repair paths.
import { AppError, type LaunchConfig, NO_AGENT, type Provider, type RuntimeSessionState } from '@kandev/protocol';
import type { AgentctlApi, ProviderUpdateResult } from '../../packages/backend/src/executors/agentctl-client';
import type { AgentctlEndpoint, Executor } from '../../packages/backend/src/executors/executor';

const HELD_AT = '2026-11-30T10:00:00.000Z';

export const ENDPOINT: AgentctlEndpoint = {
  grpcAddress: '127.0.0.1:1',
  mcpBaseUrl: 'http://127.0.0.1:2',
  controlToken: 'x',
};

/** The provider-set recomputation: task_repositories joined with repositories. */
export const PROVIDER_SET_QUERY = /from [`"]task_repositories[`"] as [`"]tr[`"] inner join [`"]repositories[`"]/i;

/** An executor whose agentctl is always the fake one at ENDPOINT. */
export function fakeExecutor(): Executor {
  return {
    name: 'local',
    ensureAgentctl: () => Promise.resolve(ENDPOINT),
    current: () => ENDPOINT,
    status: () => ({ running: true, pid: 1, grpcAddress: ENDPOINT.grpcAddress, mcpBaseUrl: ENDPOINT.mcpBaseUrl }),
    stop: () => Promise.resolve(),
  };
}

function stateOf(config: LaunchConfig): RuntimeSessionState {
  return {
    config,
    toolNames: [],
    connectionCount: 0,
    mcpPath: '/',
    createdAt: HELD_AT,
    updatedAt: HELD_AT,
    agent: NO_AGENT,
  };
}

export class FakeAgentctl implements AgentctlApi {
  readonly held = new Map<string, LaunchConfig>();
  readonly calls: string[] = [];
  /** When set, every call records itself and fails with this error. */
  failure: Error | undefined;

  createSession(): Promise<RuntimeSessionState> {
    return Promise.reject(new Error('not used'));
  }

  getSession(sessionId: string): Promise<RuntimeSessionState> {
    return this.answer(`GetSession ${sessionId}`, () => stateOf(this.require(sessionId)));
  }

  updateProviders(sessionId: string, providers: readonly Provider[], revision: number): Promise<ProviderUpdateResult> {
    return this.answer(`UpdateProviders ${sessionId} ${providers.join('+')} ${revision}`, () => {
      const config = this.require(sessionId);
      if (revision <= config.revision) return { outcome: 'stale', toolsChanged: false, session: stateOf(config) };
      const next = { ...config, providers: [...providers], revision };
      this.held.set(sessionId, next);
      return { outcome: 'applied', toolsChanged: true, session: stateOf(next) };
    });
  }

  stopSession(sessionId: string): Promise<boolean> {
    return this.answer(`StopSession ${sessionId}`, () => this.held.delete(sessionId));
  }

  listSessions(): Promise<RuntimeSessionState[]> {
    return this.answer('ListSessions', () => [...this.held.values()].map(stateOf));
  }

  pushes(): string[] {
    return this.calls.filter((call) => call.startsWith('UpdateProviders'));
  }

  private require(sessionId: string): LaunchConfig {
    const config = this.held.get(sessionId);
    if (config === undefined) throw new AppError('not_found', `no session ${sessionId} in agentctl`);
    return config;
  }

  /** Records the call; answers, or fails with the injected failure. */
  private answer<T>(call: string, work: () => T): Promise<T> {
    this.calls.push(call);
    try {
      if (this.failure !== undefined) throw this.failure;
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
