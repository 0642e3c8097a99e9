import type { Session } from '../schemas';
import { agentSummary } from './session-agent';

type Agent = NonNullable<Session['agent']>;

/** An agent as GET /api/sessions/:id reports it, ready with the fields a case changes. */
const agent = (fields: Partial<Agent>): Agent => ({
  status: 'ready',
  pid: 42,
  acp_session_id: 'acp-1',
  loaded: false,
  current_prompt_id: null,
  exit_reason: null,
  mode_id: 'default',
  system_prompt_delivery: 'spec_append',
  mcp_connected: true,
  ...fields,
});

describe('agentSummary', () => {
  test.each([
    [agent({}), 'ready, pid 42, mode default, system prompt spec_append, MCP connected'],
    [
      agent({ mode_id: null, system_prompt_delivery: 'first_prompt', mcp_connected: false }),
      'ready, pid 42, system prompt first_prompt, MCP NOT connected (no kandev tools)',
    ],
    // Before the handshake nothing is known yet.
    [
      agent({ status: 'starting', pid: 7, mode_id: null, system_prompt_delivery: 'none', mcp_connected: false }),
      'starting, pid 7',
    ],
    [agent({ status: 'exited', pid: null, mode_id: null, system_prompt_delivery: 'none' }), 'exited, MCP connected'],
  ])('%j', (given, expected) => {
    expect(agentSummary(given)).toBe(expected);
  });
});
