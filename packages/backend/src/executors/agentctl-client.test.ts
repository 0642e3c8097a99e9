import { AppError, launchConfigToWire, type WireUpdateProvidersResponseOutput } from '@kandev/protocol';
import { promptAcceptedFromWire, providerUpdateFromWire } from './agentctl-client';

const CONFIG = {
  sessionId: 's1',
  taskId: 't1',
  workspaceId: 'w1',
  surface: 'kanban_task' as const,
  questionCapability: 'user' as const,
  providers: ['github' as const, 'gitlab' as const],
  revision: 3,
  ownsTaskTitle: false,
  mcpToken: '',
  systemPrompt: 'p',
  agent: null,
};

function response(overrides: Partial<WireUpdateProvidersResponseOutput> = {}): WireUpdateProvidersResponseOutput {
  const config = launchConfigToWire(CONFIG);
  return {
    outcome: 'UPDATE_OUTCOME_APPLIED',
    tools_changed: true,
    session: {
      config: { ...config, agent: null, providers: ['PROVIDER_GITHUB', 'PROVIDER_GITLAB'] },
      tool_names: ['get_task_pr_automation_kandev'],
      connection_count: 2,
      mcp_path: '/sessions/s1/mcp',
      created_at: 'c',
      updated_at: 'u',
    },
    ...overrides,
  } as WireUpdateProvidersResponseOutput;
}

describe('providerUpdateFromWire', () => {
  test.each([
    ['UPDATE_OUTCOME_APPLIED', 'applied'],
    ['UPDATE_OUTCOME_UNCHANGED', 'unchanged'],
    ['UPDATE_OUTCOME_STALE', 'stale'],
  ] as const)('%s -> %s, with what agentctl holds', (wire, outcome) => {
    const result = providerUpdateFromWire(response({ outcome: wire }));
    expect(result).toMatchObject({ outcome, toolsChanged: true, session: { connectionCount: 2 } });
    expect(result.session.config).toMatchObject({ revision: 3, providers: ['github', 'gitlab'] });
  });

  test('an unspecified outcome or a missing session is an internal error, never guessed', () => {
    expect(() => providerUpdateFromWire(response({ outcome: 'UPDATE_OUTCOME_UNSPECIFIED' }))).toThrow(AppError);
    expect(() => providerUpdateFromWire(response({ session: null }))).toThrow(/no session state/);
  });
});

describe('promptAcceptedFromWire', () => {
  test('the turn record, mapped, and whether agentctl had seen the prompt id', () => {
    const turn = {
      prompt_id: 'p1',
      status: 'TURN_STATUS_COMPLETED' as const,
      stop_reason: 'end_turn',
      error: '',
      started_at: 's',
      ended_at: 'e',
    };
    expect(promptAcceptedFromWire({ turn, duplicate: true })).toEqual({
      turn: { promptId: 'p1', status: 'completed', stopReason: 'end_turn', error: null, startedAt: 's', endedAt: 'e' },
      duplicate: true,
    });
  });

  test("no turn record is agentctl's fault, never guessed", () => {
    expect(() => promptAcceptedFromWire({ turn: null, duplicate: false })).toThrow(/no turn record/);
  });
});
