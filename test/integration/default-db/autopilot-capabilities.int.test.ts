// One question capability per session, black box: a real backend (with its own agentctl) runs the
// scripted test agent for a normal task, an autopilot child and an autopilot root. What each agent
// discovers with tools/list and the system prompt it was started with (it echoes `_meta.systemPrompt`)
// are checked from the conversation; REST and real MCP only.
import { ASK_PARENT, ASK_USER, AutopilotWorld, resultText, type ToolResult } from '../../helpers/autopilot';
import { useCleanup } from '../../helpers/cleanup';

const SCRIPT = 'autopilot-child';

describe('autopilot: one question capability per session', () => {
  const cleanup = useCleanup();

  test('normal -> operator tool and the normal prompt; autopilot child -> parent tool and the autonomy prompt; autopilot root -> neither', async () => {
    const world = await AutopilotWorld.start(cleanup);
    const normal = await world.task({ title: 'Normal parent', script: SCRIPT });
    const child = await world.task({ title: 'Autopilot child', parent_id: normal.id, autopilot: true, script: SCRIPT });
    const root = await world.task({ title: 'Autopilot root', autopilot: true, script: SCRIPT });
    // Autopilot is never inherited and defaults to false.
    const plainChild = await world.task({ title: 'Plain child', parent_id: child.id, script: SCRIPT });
    expect([normal.autopilot, child.autopilot, root.autopilot, plainChild.autopilot]).toEqual([
      false,
      true,
      true,
      false,
    ]);

    const seen = new Map<string, { capability: string; systemPrompt: string; tools: string; echoed: string }>();
    for (const task of [normal, child, root, plainChild]) {
      const { sessionId, session } = await world.launch(task.id, { agent: true });
      await world.runtime.postPrompt(sessionId, 'LIST-TOOLS please');
      await world.runtime.postPrompt(sessionId, 'SHOW-SYSTEM-PROMPT please');
      await world.runtime.waitForDrained(sessionId, 2);
      const [tools, echoed] = await world.runtime.agentReplies(task.id);
      seen.set(task.id, {
        capability: session.launch_config.question_capability,
        systemPrompt: session.launch_config.system_prompt,
        tools: tools ?? '',
        echoed: echoed ?? '',
      });
    }
    const of = (id: string) => seen.get(id)!;

    expect([normal, child, root, plainChild].map((t) => of(t.id).capability)).toEqual([
      'user',
      'parent',
      'none',
      'user',
    ]);
    // What the agent discovered: exactly one question tool, or none for the root.
    const questionTools = (tools: string) => [ASK_USER, ASK_PARENT].filter((name) => tools.includes(name));
    expect(questionTools(of(normal.id).tools)).toEqual([ASK_USER]);
    expect(questionTools(of(child.id).tools)).toEqual([ASK_PARENT]);
    expect(questionTools(of(root.id).tools)).toEqual([]);
    expect(questionTools(of(plainChild.id).tools)).toEqual([ASK_USER]);
    // Task work stays available to every kind (minimum necessary is about questions only).
    for (const task of [normal, child, root]) expect(of(task.id).tools).toContain('message_task_kandev');

    // The agent was started with the launch config's system prompt, and the three kinds differ.
    for (const task of [normal, child, root]) expect(of(task.id).echoed).toBe(`SP: ${of(task.id).systemPrompt}`);
    expect(new Set([normal, child, root].map((t) => of(t.id).systemPrompt)).size).toBe(3);
    expect(of(normal.id).systemPrompt).toContain(ASK_USER);
    expect(of(normal.id).systemPrompt).not.toContain(ASK_PARENT);
    expect(of(child.id).systemPrompt).toContain(ASK_PARENT);
    expect(of(child.id).systemPrompt).not.toContain(ASK_USER);
    expect(of(child.id).systemPrompt).toMatch(/autopilot/i);
    expect(of(root.id).systemPrompt).not.toContain(ASK_USER);
    expect(of(root.id).systemPrompt).not.toContain(ASK_PARENT);
    expect(of(root.id).systemPrompt).toMatch(/best judgment/i);
    expect(of(plainChild.id).systemPrompt).toBe(of(normal.id).systemPrompt);
  });

  test('an autopilot root cannot ask anyone: a direct call fails closed and leaves no question behind', async () => {
    const world = await AutopilotWorld.start(cleanup);
    const root = await world.task({ title: 'Autopilot root', autopilot: true });
    const session = await world.launch(root.id, { agent: false });
    const mcp = await world.mcp(session);
    expect(await mcp.toolNames()).not.toEqual(expect.arrayContaining([ASK_PARENT]));

    // A stale or misbehaving client calls it anyway: agentctl refuses a tool outside the session's list.
    const call = mcp.client.callTool({
      name: ASK_PARENT,
      arguments: { questions: [{ prompt: 'Anyone?' }], blocked_reason: 'No parent.' },
    }) as Promise<ToolResult>;
    const outcome = await call.then(
      (result) => ({ rejected: result.isError === true, text: resultText(result) }),
      (error: unknown) => ({ rejected: true, text: error instanceof Error ? error.message : String(error) }),
    );
    expect(outcome.rejected).toBe(true);
    expect(outcome.text).toContain(ASK_PARENT);

    expect(await world.parentQuestions(root.id)).toEqual([]);
    expect((await world.getTask(root.id)).pending_action).toBeNull();
    expect((await world.runtime.session(session.sessionId)).state).toBe('waiting_for_input');
  });
});
