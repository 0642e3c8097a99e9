import fc from 'fast-check';
import { AGENT_STATUSES } from '@kandev/protocol';
import { AGENT_SESSION_STATES } from './agent-session';
import { type HealthInput, sessionHealth } from './session-health';
import { isLive } from './session-lifecycle';

const base: HealthInput = { state: 'waiting_for_input', lastError: null, refreshError: null };

describe('sessionHealth', () => {
  test.each<[string, HealthInput, string]>([
    ['an idle session', base, 'ok'],
    ['a failed session', { ...base, state: 'failed', lastError: 'exit 1' }, 'failed'],
    ['a warning on a live session', { ...base, lastError: 'no MCP connection' }, 'warning'],
    ['a refresh that did not land', { ...base, refreshError: 'agentctl refused' }, 'warning'],
    ['a live session whose agentctl is gone', { ...base, runtime: { reachable: false, agentStatus: null } }, 'stuck'],
    ['a live session whose agent exited', { ...base, runtime: { reachable: true, agentStatus: 'exited' } }, 'stuck'],
    ['a live session with a ready agent', { ...base, runtime: { reachable: true, agentStatus: 'ready' } }, 'ok'],
    ['a live session with no agent', { ...base, runtime: { reachable: true, agentStatus: 'none' } }, 'ok'],
    [
      'an ended session agentctl forgot',
      { ...base, state: 'completed', runtime: { reachable: false, agentStatus: null } },
      'ok',
    ],
  ])('%s is %s', (_name, input, expected) => {
    expect(sessionHealth(input)).toBe(expected);
  });

  test('failed exactly for failed sessions; stuck only for live ones that asked agentctl', () => {
    const text = fc.option(fc.string(), { nil: null });
    const runtime = fc.option(
      fc.record({ reachable: fc.boolean(), agentStatus: fc.option(fc.constantFrom(...AGENT_STATUSES), { nil: null }) }),
      { nil: undefined },
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...AGENT_SESSION_STATES),
        text,
        text,
        runtime,
        (state, lastError, refreshError, rt) => {
          const health = sessionHealth({ state, lastError, refreshError, runtime: rt });
          if ((health === 'failed') !== (state === 'failed')) return false;
          if (health === 'stuck' && (rt === undefined || !isLive(state))) return false;
          if (health === 'ok' && (lastError !== null || refreshError !== null)) return false;
          return true;
        },
      ),
    );
  });
});
