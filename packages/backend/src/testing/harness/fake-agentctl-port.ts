// The agentctl port an in-process backend is given in tests: a 'local' executor whose one agentctl is
// always up at ENDPOINT and is the fake, or no agentctl at all.
import type { AgentctlPort } from '../../composition/backend-ports';
import { AgentctlEventHub } from '../../runtime/agentctl/agentctl-event-hub';
import type { AgentctlEndpoint, ExecutorBackend } from '../../runtime/agentctl/executor';
import { ExecutorRegistry } from '../../runtime/executors/executor-registry';
import type { FakeAgentctl } from './fake-agentctl';

export const ENDPOINT: AgentctlEndpoint = {
  grpcAddress: '127.0.0.1:1',
  mcpBaseUrl: 'http://127.0.0.1:2',
  controlToken: 'x',
};

/**
 * The 'local' executor of an in-process backend: its one agentctl is always up at ENDPOINT, where
 * `agentctl` answers every call. Without one, no agentctl is up at all (a launch fails, a
 * per-session call is `unavailable`).
 */
export function fakeAgentctlPort(agentctl?: FakeAgentctl): AgentctlPort {
  const up = agentctl === undefined ? [] : [ENDPOINT];
  const local: ExecutorBackend = {
    kind: 'local',
    acquire: () =>
      up[0] === undefined ? Promise.reject(new Error('no agentctl in this test')) : Promise.resolve(up[0]),
    endpointAt: (grpcAddress) => up.find((endpoint) => endpoint.grpcAddress === grpcAddress),
    endpoints: () => [...up],
    release: () => Promise.resolve(),
    recover: () => Promise.resolve(),
    status: () => ({
      running: up.length > 0,
      pid: up.length > 0 ? 1 : null,
      grpcAddress: up[0]?.grpcAddress ?? null,
      mcpBaseUrl: up[0]?.mcpBaseUrl ?? null,
    }),
    stop: () => Promise.resolve(),
  };
  const clients = {
    clientFor: () => {
      if (agentctl === undefined) throw new Error('no agentctl in this test');
      return agentctl;
    },
  };
  return {
    executors: new ExecutorRegistry(new Map([['local', local]]), 'local'),
    clients,
    events: new AgentctlEventHub(),
  };
}
