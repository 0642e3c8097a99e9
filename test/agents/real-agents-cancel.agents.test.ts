// Cancel and kill of the real ACP agents: while the model streams and never finishes, a cancel ends the
// turn `cancelled` and the session goes on; a SIGKILLed agent fails its session (its last_error says
// how the agent exited) and the prompt it was working on.
import { agentPid } from '../helpers/agent-runtime';
import { useCleanup } from '../helpers/cleanup';
import type { ModelRequest } from '../helpers/model-apis/model-request';
import type { ModelTurn } from '../helpers/model-apis/model-script';
import { REAL_AGENTS } from '../helpers/real-agents/real-agent-kinds';
import { postPrompt, waitForPromptDone } from '../helpers/real-agents/real-agent-operator';
import { launchRealAgent, type RealAgentWorld } from '../helpers/real-agents/real-agent-world';

const THINK = 'kandev-test: think forever';
const TURNS: ModelTurn[] = [{ match: THINK, steps: [{ hang: true }] }];

/** Posts a prompt the model never finishes; resolves once the model is streaming its answer. */
async function hangingTurn(world: RealAgentWorld, label: string): Promise<string> {
  const promptId = await postPrompt(world, `${THINK} (${label})`);
  const hangs = (r: ModelRequest) =>
    r.kind === 'main' && r.step !== null && 'hang' in r.step && (r.userTexts.at(-1) ?? '').includes(`(${label})`);
  await world.standin.waitForRequest(hangs, `hanging for prompt (${label})`);
  return promptId;
}

describe('real agents: cancel a turn, kill the agent', () => {
  const cleanup = useCleanup();

  test.each(REAL_AGENTS)(
    '$profile',
    async (agent) => {
      const world = await launchRealAgent(cleanup, agent, TURNS);

      const first = await hangingTurn(world, 'cancelled');
      expect(await world.runtime.cancel(world.sessionId)).toEqual({ cancelled: true, prompt_id: first });
      expect(await waitForPromptDone(world, first)).toMatchObject({ status: 'completed', stop_reason: 'cancelled' });

      const second = await hangingTurn(world, 'killed');
      process.kill(agentPid(await world.runtime.session(world.sessionId)), 'SIGKILL');
      const failed = await world.runtime.waitForState(world.sessionId, 'failed');
      // The session says why: agentctl's exit reason ("killed by SIGKILL"); the prompt that "the agent exited".
      expect(failed).toMatchObject({
        agent: { status: 'exited', exit_reason: expect.stringContaining('SIGKILL') as unknown },
      });
      expect(failed.last_error).toContain('SIGKILL');
      const lost = await waitForPromptDone(world, second);
      expect(lost).toMatchObject({ status: 'failed', error: expect.stringMatching(/agent exited/i) as unknown });
    },
    120_000,
  );
});
