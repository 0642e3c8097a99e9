import type { AgentCommand, LaunchConfig } from '@kandev/protocol';
import { FakeAgentLauncher } from '../testing/fake-session-agent';
import { launchConfig, MCP_TOKEN_A, MCP_TOKEN_B } from '../testing/launch-config-fixture';
import { silentLogger } from '../testing/silent-logger';
import { ToolSetCache } from '../tools/tool-set-cache';
import { SessionRegistry } from './session-registry';

const AGENT: AgentCommand = {
  command: 'agent',
  args: [],
  env: { API_KEY: 'secret' },
  cwd: null,
  supportsMcp: true,
  resumeAcpSessionId: null,
  permissionPolicy: 'ask',
};

const withAgent = (overrides: Partial<LaunchConfig> = {}) => launchConfig({ agent: AGENT, ...overrides });
const failedPrecondition = expect.objectContaining({ code: 'failed_precondition' }) as Error;

function setup() {
  const agents = new FakeAgentLauncher();
  const registry = new SessionRegistry({ toolSets: new ToolSetCache(), agents, log: silentLogger });
  const agent = (n: number) => {
    const a = agents.created[n];
    if (a === undefined) throw new Error(`no agent #${n}`);
    return a;
  };
  return { registry, agents, agent };
}

describe('SessionRegistry with agents', () => {
  test('CreateSession with an agent starts it with the real token; the state reports it', async () => {
    const { registry, agent } = setup();
    const state = await registry.create(withAgent());
    expect(agent(0).log).toEqual(['start']);
    expect(agent(0).config.mcpToken).toBe(MCP_TOKEN_A);
    expect(state.agent).toMatchObject({ status: 'ready', pid: 101 });
    expect(JSON.stringify(state)).not.toContain(MCP_TOKEN_A);
  });

  test('the same revision with another agent env value is a conflict, not a replay; providers keep the digest', async () => {
    const { registry, agents } = setup();
    await registry.create(withAgent());
    const otherKey = withAgent({ agent: { ...AGENT, env: { API_KEY: 'rotated' } } });
    await expect(registry.create(otherKey)).rejects.toEqual(failedPrecondition);
    // A provider update rebuilds the held (redacted) config; the original replay is still a replay.
    await registry.updateProviders({ sessionId: 'session-1', providers: ['github'], revision: 2 });
    expect((await registry.create(withAgent({ revision: 2, providers: ['github'] }))).config.revision).toBe(2);
    expect(agents.created).toHaveLength(1);
  });

  test('a session without an agent reports none and refuses prompts', async () => {
    const { registry, agents } = setup();
    expect((await registry.create(launchConfig())).agent.status).toBe('none');
    expect(agents.created).toEqual([]);
    expect(() => registry.prompt({ sessionId: 'session-1', promptId: 'p1', text: 'x' })).toThrow(failedPrecondition);
    expect(registry.cancelTurn('session-1')).toEqual({ cancelled: false, promptId: null });
  });

  test('an idempotent replay restarts nothing', async () => {
    const { registry, agents, agent } = setup();
    await registry.create(withAgent());
    await registry.create(withAgent());
    expect(agents.created).toHaveLength(1);
    expect(agent(0).log).toEqual(['start']);
  });

  test('resume (higher revision): the old agent stops before the new one starts, with the resume id', async () => {
    const { registry, agent } = setup();
    await registry.create(withAgent());
    agent(0).holdStop = true;
    const resumed = registry.create(
      withAgent({ revision: 2, mcpToken: MCP_TOKEN_B, agent: { ...AGENT, resumeAcpSessionId: 'acp-1' } }),
    );
    await Promise.resolve();
    expect(agent(0).log).toEqual(['start', 'stop']);
    expect(agent(1).log).toEqual([]);
    agent(0).finishStop();
    const state = await resumed;
    expect(agent(0).log).toEqual(['start', 'stop', 'stopped']);
    expect(agent(1).log).toEqual(['start']);
    expect(agent(1).config).toMatchObject({
      revision: 2,
      mcpToken: MCP_TOKEN_B,
      agent: { resumeAcpSessionId: 'acp-1' },
    });
    expect(state.agent.pid).toBe(102);
  });

  test('two quick resumes: the middle agent never starts, the last starts once the first stopped', async () => {
    const { registry, agent } = setup();
    await registry.create(withAgent());
    agent(0).holdStop = true;
    const second = registry.create(withAgent({ revision: 2 }));
    const third = registry.create(withAgent({ revision: 3 }));
    agent(0).finishStop();
    await Promise.all([second, third]);
    expect(agent(1).log).toEqual(['stop', 'stopped']);
    expect(agent(2).log).toEqual(['start']);
  });

  test('resume to a config without an agent stops the old one', async () => {
    const { registry, agent } = setup();
    await registry.create(withAgent());
    const state = await registry.create(launchConfig({ revision: 2 }));
    expect(agent(0).log).toEqual(['start', 'stop', 'stopped']);
    expect(state.agent.status).toBe('none');
  });

  test('prompt ids are idempotent for the session, across an agent restart', async () => {
    const { registry, agent } = setup();
    await registry.create(withAgent());
    const first = registry.prompt({ sessionId: 'session-1', promptId: 'p1', text: 'x' });
    expect(first.duplicate).toBe(false);
    expect(registry.prompt({ sessionId: 'session-1', promptId: 'p1', text: 'x' })).toEqual({
      turn: first.turn,
      duplicate: true,
    });
    await registry.create(withAgent({ revision: 2 }));
    expect(registry.prompt({ sessionId: 'session-1', promptId: 'p1', text: 'again' })).toMatchObject({
      duplicate: true,
    });
    expect([agent(0).log, agent(1).log]).toEqual([['start', 'prompt:p1', 'stop', 'stopped'], ['start']]);
  });

  test('prompt and cancel on an unknown session: not_found', () => {
    const { registry } = setup();
    const notFound = expect.objectContaining({ code: 'not_found' }) as Error;
    expect(() => registry.prompt({ sessionId: 'nope', promptId: 'p1', text: 'x' })).toThrow(notFound);
    expect(() => registry.cancelTurn('nope')).toThrow(notFound);
  });

  test('cancel goes to the agent', async () => {
    const { registry, agent } = setup();
    await registry.create(withAgent());
    expect(registry.cancelTurn('session-1')).toEqual({ cancelled: true, promptId: 'p-running' });
    expect(agent(0).log).toEqual(['start', 'cancel']);
  });

  test('StopSession stops the agent and waits for it before reporting stopped', async () => {
    const { registry, agent } = setup();
    await registry.create(withAgent());
    agent(0).holdStop = true;
    let stopped = false;
    const stopping = registry.stop('session-1').then((result) => (stopped = result));
    await Promise.resolve();
    expect(stopped).toBe(false);
    agent(0).finishStop();
    await stopping;
    expect(stopped).toBe(true);
    expect(agent(0).log).toEqual(['start', 'stop', 'stopped']);
    expect(registry.find('session-1')).toBeUndefined();
  });

  test('shutdown: stopAllAgents stops every agent; killAllAgents kills every one', async () => {
    const { registry, agent } = setup();
    await registry.create(withAgent({ sessionId: 'a' }));
    await registry.create(withAgent({ sessionId: 'b' }));
    await registry.create(launchConfig({ sessionId: 'c' }));
    registry.killAllAgents();
    await registry.stopAllAgents();
    expect([agent(0).log, agent(1).log]).toEqual([
      ['start', 'kill', 'stop', 'stopped'],
      ['start', 'kill', 'stop', 'stopped'],
    ]);
  });
});
