// The real ACP agents the shipped profiles pin (Claude Code, Codex, Gemini CLI), each through a real
// backend and its own agentctl, against a scripted model-API stand-in on loopback: the agent connects
// to its MCP server, the model sees exactly the session's kandev tools and kandev's system prompt
// beside the agent's own, a kandev tool call reaches the model and the conversation, and a provider
// added live changes the tools the model sees on the next prompt.
import { useCleanup } from '../helpers/cleanup';
import { makeRepository } from '../helpers/git-repos';
import type { ModelTurn } from '../helpers/model-apis/model-script';
import { tempDir } from '../helpers/processes';
import { lastToolsReport, runPrompt } from '../helpers/real-agents/real-agent-operator';
import { REAL_AGENTS } from '../helpers/real-agents/real-agent-kinds';
import { launchRealAgent, type RealAgentWorld, TASK_TITLE } from '../helpers/real-agents/real-agent-world';
import { MR_PAIR, PR_PAIR, sorted } from '../helpers/tool-names';

const REPORT = 'kandev-test: report the tools you can call';
const CALL_GET_TASK = 'kandev-test: read your task with get_task';

const TURNS: ModelTurn[] = [
  { match: REPORT, steps: [{ reportTools: true }] },
  { match: CALL_GET_TASK, steps: [{ callKandev: 'get_task_kandev', args: {} }, { say: 'I read the task.' }] },
];

/** Whitespace-insensitive, so a prompt re-wrapped by an agent still counts. */
const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

async function sessionTools(world: RealAgentWorld): Promise<string[]> {
  return sorted((await world.runtime.session(world.sessionId)).tools ?? []);
}

async function expectReportedToolsAre(world: RealAgentWorld, tools: string[]): Promise<void> {
  const done = await runPrompt(world, REPORT);
  expect(done).toMatchObject({ status: 'completed', stop_reason: 'end_turn' });
  expect(await lastToolsReport(world)).toEqual({ kandev: tools, other: [] });
}

describe('real agents: tools, system prompt, a tool call and a live tool change', () => {
  const cleanup = useCleanup();

  test.each(REAL_AGENTS)(
    '$profile',
    async (agent) => {
      const world = await launchRealAgent(cleanup, agent, TURNS);
      // The agent listed its kandev tools during the handshake.
      expect(world.ready).toMatchObject({
        state: 'waiting_for_input',
        agent: { status: 'ready', mcp_connected: true },
      });

      // The model can discover exactly the session's tools (a github repository: the PR pair), nothing else.
      const tools = await sessionTools(world);
      expect(tools).toEqual(expect.arrayContaining(PR_PAIR));
      expect(tools).not.toEqual(expect.arrayContaining(MR_PAIR));
      await expectReportedToolsAre(world, tools);

      // kandev's system prompt reached the model beside the agent's own.
      const systemPrompt = flat(world.launched.launch_config.system_prompt);
      const [first] = world.standin.mainRequests();
      expect(first?.instructions).toContain(agent.ownPromptMarker);
      const carriers =
        agent.systemPromptAt === 'instructions' ? [first?.instructions] : [first?.instructions, first?.userTexts[0]];
      expect(carriers.map((text) => flat(text ?? '')).some((text) => text.includes(systemPrompt))).toBe(true);

      // A kandev tool call: its result reaches the model, the conversation records the call.
      const read = await runPrompt(world, CALL_GET_TASK);
      expect(read).toMatchObject({ status: 'completed', stop_reason: 'end_turn' });
      const afterCall = world.standin
        .mainRequests()
        .find((r) => r.step !== null && 'say' in r.step && r.userTexts.at(-1)?.includes(CALL_GET_TASK));
      expect(afterCall?.toolResults.some((result) => result.includes(TASK_TITLE))).toBe(true);
      // A preamble goes on the session's first prompt only.
      expect(flat(afterCall?.userTexts.at(-1) ?? '')).not.toContain(systemPrompt);
      const calls = (await world.runtime.messages(world.taskId)).filter((m) => m.type === 'tool_call');
      expect(calls).toContainEqual(
        expect.objectContaining({
          content: expect.stringContaining('get_task_kandev') as unknown,
          metadata: expect.objectContaining({ status: 'completed', prompt_id: read.id }) as unknown,
        }),
      );

      // A GitLab repository added live: the next prompt's model sees the MR tools.
      const gitlab = makeRepository(tempDir(cleanup, 'kandev-agent-repo-'), 'api');
      const repository = await world.runtime.api.repository(world.workspaceId, {
        local_path: gitlab,
        provider: 'gitlab',
      });
      const added = await world.runtime.api.request<{ refresh: { status: string } }>(
        'POST',
        `/api/tasks/${world.taskId}/workspace-sources?wait=applied`,
        { sources: [{ repository_id: repository.id }] },
      );
      expect(added).toMatchObject({ status: 201, body: { refresh: { status: 'applied' } } });
      const widened = await sessionTools(world);
      expect(widened).toEqual(sorted([...tools, ...MR_PAIR]));
      await expectReportedToolsAre(world, widened);
    },
    120_000,
  );
});
