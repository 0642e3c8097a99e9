// Permissions of the real ACP agents under their shipped policy (`ask`): a shell write the scripted
// model runs becomes an operator question with the agent's own options; allow once runs it, reject
// does not; "allow always" runs it without the agent storing a rule of its own (nothing in the
// operator's checkout, no Codex rules file), and kandev answers the same command later by itself.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { useCleanup } from '../helpers/cleanup';
import { git } from '../helpers/git-repos';
import type { ModelTurn } from '../helpers/model-apis/model-script';
import { codexRulesDir, REAL_AGENTS } from '../helpers/real-agents/real-agent-kinds';
import {
  answerWith,
  postPrompt,
  questionsOf,
  runPrompt,
  waitForPermissionQuestion,
  waitForPromptDone,
} from '../helpers/real-agents/real-agent-operator';
import { launchRealAgent, type RealAgentWorld } from '../helpers/real-agents/real-agent-world';

const WRITE_A = 'kandev-test: write a.txt';
const WRITE_B = 'kandev-test: write b.txt';
const WRITE_C = 'kandev-test: write c.txt';
/** Claude Code offers "don't ask again" only for some commands; `node -e …` is one ("similar commands"). */
const NODE_WRITES_C = `node -e "require('fs').writeFileSync('c.txt', 'c')"`;

/** What the allowed command prints: it must reach the conversation as the tool call's output. */
const PRINTED = 'kandev-wrote-a';

const TURNS: ModelTurn[] = [
  { match: WRITE_A, steps: [{ shell: `touch a.txt && echo ${PRINTED}` }, { say: 'Wrote a.txt.' }] },
  { match: WRITE_B, steps: [{ shell: 'touch b.txt' }, { say: 'Tried b.txt.' }] },
  { match: WRITE_C, steps: [{ shell: NODE_WRITES_C }, { say: 'Wrote c.txt.' }] },
];

const inWorktree = (world: RealAgentWorld, file: string) => existsSync(join(world.worktree, file));

describe('real agents: permission requests under policy ask', () => {
  const cleanup = useCleanup();

  test.each(REAL_AGENTS)(
    '$profile',
    async (agent) => {
      const world = await launchRealAgent(cleanup, agent, TURNS);

      // Allow once: a question with the agent's options; the command runs.
      const a = await postPrompt(world, WRITE_A);
      const askA = await waitForPermissionQuestion(world, a);
      expect(askA).toMatchObject({ kind: 'permission', state: 'pending' });
      await answerWith(world, askA, 'allow_once');
      expect(await waitForPromptDone(world, a)).toMatchObject({ status: 'completed', stop_reason: 'end_turn' });
      expect(inWorktree(world, 'a.txt')).toBe(true);
      // The conversation keeps the call: its command (title or input), completed, and what it printed.
      const calls = (await world.runtime.messages(world.taskId)).filter(
        (m) => m.type === 'tool_call' && m.metadata.prompt_id === a,
      );
      const command = calls.find((m) => `${m.content} ${JSON.stringify(m.metadata.input)}`.includes('touch a.txt'));
      expect(command?.metadata).toMatchObject({
        status: 'completed',
        output: expect.stringContaining(PRINTED) as unknown,
      });

      // Reject: the command does not run (Codex ends the turn `cancelled` on a reject).
      const b = await postPrompt(world, WRITE_B);
      await answerWith(world, await waitForPermissionQuestion(world, b), 'reject_once');
      expect(await waitForPromptDone(world, b)).toMatchObject({ status: 'completed' });
      expect(inWorktree(world, 'b.txt')).toBe(false);

      // Allow always: the command runs; kandev keeps "always", the agent writes no rule of its own.
      const c = await postPrompt(world, WRITE_C);
      const askC = await waitForPermissionQuestion(world, c);
      await answerWith(world, askC, 'allow_always');
      expect(await waitForPromptDone(world, c)).toMatchObject({ status: 'completed', stop_reason: 'end_turn' });
      expect(inWorktree(world, 'c.txt')).toBe(true);
      expect(git(world.source, 'status', '--porcelain')).toBe('');
      expect(existsSync(join(world.source, '.claude'))).toBe(false);
      expect(existsSync(codexRulesDir(world.home))).toBe(false);

      // The same command again: it runs with no new question (kandev answers the agent allow-once).
      rmSync(join(world.worktree, 'c.txt'));
      expect(await runPrompt(world, `${WRITE_C} again`)).toMatchObject({
        status: 'completed',
        stop_reason: 'end_turn',
      });
      expect(inWorktree(world, 'c.txt')).toBe(true);
      expect((await questionsOf(world)).map((q) => q.kind)).toEqual(['permission', 'permission', 'permission']);
    },
    120_000,
  );
});
