import { agentSummary } from './session-agent';

describe('agentSummary', () => {
  const ready = { status: 'ready', pid: 42, mode_id: 'default', system_prompt_delivery: 'spec_append' };

  test.each([
    [{ ...ready, mcp_connected: true }, 'ready, pid 42, mode default, system prompt spec_append, MCP connected'],
    [
      { ...ready, mode_id: null, system_prompt_delivery: 'first_prompt', mcp_connected: false },
      'ready, pid 42, system prompt first_prompt, MCP NOT connected (no kandev tools)',
    ],
    // Before the handshake nothing is known yet; an older backend says nothing about it.
    [
      { status: 'starting', pid: 7, mode_id: null, system_prompt_delivery: 'none', mcp_connected: false },
      'starting, pid 7',
    ],
    [{ status: 'exited', pid: null }, 'exited'],
  ])('%j', (agent, expected) => {
    expect(agentSummary(agent)).toBe(expected);
  });
});
