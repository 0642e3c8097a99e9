import { ERROR_CODES, NO_AGENT, type RuntimeSessionState } from '@kandev/protocol';
import { judgeAgent, LOST_SESSION_REASON, NO_AGENT_REASON, promptFailureKind } from './agent-verdict';

function held(agent: Partial<RuntimeSessionState['agent']>): RuntimeSessionState {
  return {
    config: {
      sessionId: 's',
      taskId: 't',
      workspaceId: 'w',
      surface: 'kanban_task',
      questionCapability: 'user',
      providers: [],
      revision: 1,
      ownsTaskTitle: false,
      mcpToken: '',
      systemPrompt: '',
      agent: null,
    },
    toolNames: [],
    connectionCount: 0,
    mcpPath: '/',
    createdAt: 'c',
    updatedAt: 'u',
    agent: { ...NO_AGENT, ...agent },
  };
}

describe('judgeAgent', () => {
  test.each([
    ['not held', undefined, true, { kind: 'lost', reason: LOST_SESSION_REASON }],
    ['no agent though the config names one', held({ status: 'none' }), true, { kind: 'lost', reason: NO_AGENT_REASON }],
    ['no agent, MCP only', held({ status: 'none' }), false, { kind: 'ready' }],
    [
      'exited',
      held({ status: 'exited', exitReason: 'exited with code 3' }),
      true,
      { kind: 'exited', reason: 'exited with code 3' },
    ],
    ['exited, no reason given', held({ status: 'exited' }), true, { kind: 'exited', reason: 'the agent exited' }],
    ['starting', held({ status: 'starting' }), true, { kind: 'starting' }],
    ['ready', held({ status: 'ready' }), true, { kind: 'ready' }],
    ['prompting', held({ status: 'prompting', currentPromptId: 'p1' }), true, { kind: 'prompting', promptId: 'p1' }],
  ] as const)('%s', (_name, state, hasAgent, verdict) => {
    expect(judgeAgent(state, hasAgent)).toEqual(verdict);
  });
});

describe('promptFailureKind', () => {
  test('only failures that may have reached the agent are re-sent; every other answer delivered nothing', () => {
    const ambiguous = ERROR_CODES.filter((code) => promptFailureKind(code) === 'ambiguous');
    expect(ambiguous).toEqual(['unavailable', 'deadline_exceeded', 'internal']);
  });

  test('only a refusal of the prompt itself is final; refusals about the session let it wait again', () => {
    const rejected = ERROR_CODES.filter((code) => promptFailureKind(code) === 'rejected');
    expect(rejected).toEqual(['invalid_argument']);
  });
});
