import type { AgentctlApi, AgentctlConnector } from '../agentctl/agentctl-client';
import type { AgentctlDirectory } from '../agentctl/agentctl-directory';
import { Agentctls } from '../agentctl/agentctls';
import type { AgentctlEndpoint } from '../agentctl/executor';
import type { AgentSession } from '../sessions/agent-session';
import { AgentctlRuntimeSessions } from './runtime-session-control';

const ENDPOINT: AgentctlEndpoint = { grpcAddress: 'd:1', mcpBaseUrl: 'http://d:2', controlToken: 't'.repeat(32) };
const SESSION = { id: 's1', executor: 'docker', agentctlAddress: 'd:1' } as AgentSession;

function setup(release: () => Promise<void>) {
  const released: string[] = [];
  const directory = {
    endpointFor: () => ENDPOINT,
    release: async (session: { id: string }) => {
      released.push(session.id);
      await release();
    },
  } as unknown as AgentctlDirectory;
  const clients: AgentctlConnector = {
    clientFor: () => ({ stopSession: () => Promise.resolve(true) }) as unknown as AgentctlApi,
  };
  const control = new AgentctlRuntimeSessions({ agentctls: new Agentctls(directory, clients) });
  return { control, released };
}

describe('AgentctlRuntimeSessions.stop', () => {
  test('every stop (REST or stop_task_kandev) also releases what the executor held for the session', async () => {
    const { control, released } = setup(() => Promise.resolve());
    expect(await control.stop(SESSION)).toEqual({ status: 'stopped' });
    expect(released).toEqual(['s1']);
  });

  test('a failed release is reported as a failed stop, so the orphan sweep follows up', async () => {
    const { control } = setup(() => Promise.reject(new Error('engine down')));
    expect(await control.stop(SESSION)).toEqual({ status: 'failed', reason: 'executor release failed: engine down' });
  });
});
