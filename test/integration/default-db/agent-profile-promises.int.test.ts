// What a profile promises, held by agentctl whatever the agent's own defaults are, black box: a real
// backend (with its own agentctl) runs the scripted test agent configured like the real agents it
// stands for (a default mode that never asks, no system-prompt support, list_changed ignored, no MCP
// connection). The real adapters are driven through the same paths by the `agents` project.
import { type AgentSessionSetup, launchAgentSession, RUNTIME_TIMEOUT_MS } from '../../helpers/agent-runtime';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';
import { makeRepository } from '../../helpers/git-repos';
import { tempDir } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

const MR_TOOLS = ['get_task_mr_automation_kandev', 'update_task_mr_automation_kandev'];

interface AgentSetupView {
  mode_id: string | null;
  system_prompt_delivery: string;
  mcp_connected: boolean;
}

/** Posts a prompt, waits for it to finish; returns the prompt as finished and the agent's last reply. */
async function turn(s: AgentSessionSetup, prompt: string) {
  const posted = await s.runtime.postPrompt(s.session.session_id, prompt);
  const prompts = await s.runtime.waitForPrompts(
    s.session.session_id,
    (items) =>
      items.some((p) => p.id === posted.queued_prompt_id && (p.status === 'completed' || p.status === 'failed')),
    `prompt "${prompt}" finished`,
  );
  const finished = prompts.find((p) => p.id === posted.queued_prompt_id);
  const replies = await s.runtime.agentReplies(s.taskId);
  return { finished, reply: replies.at(-1) ?? '' };
}

async function agentSetup(s: AgentSessionSetup): Promise<AgentSetupView> {
  const view = await s.runtime.api.request<{ agent: AgentSetupView }>('GET', `/api/sessions/${s.session.session_id}`);
  return view.body.agent;
}

function repository(cleanup: Cleanup, name: string): string {
  return makeRepository(tempDir(cleanup, 'kandev-promises-repo-'), name);
}

describe('agent profile promises, with the scripted agent as the real ones behave', () => {
  const cleanup = useCleanup();

  test('ask: an agent whose own mode never asks is put in its asking mode; the write becomes a question', async () => {
    const s = await launchAgentSession(cleanup, 'profile-setup', {
      permissionPolicy: 'ask',
      localPath: repository(cleanup, 'app'),
    });
    expect(await agentSetup(s)).toMatchObject({
      mode_id: 'default',
      system_prompt_delivery: 'spec_append',
      mcp_connected: true,
    });
    // The system prompt came in the ACP systemPrompt field; the prompt arrives as written.
    const report = await turn(s, 'report');
    expect(report.reply).toBe(`mode=default|system_prompt=${s.session.launch_config.system_prompt}|prompt=report`);

    const writing = turn(s, 'write');
    const question = await waitUntil(
      async () => {
        const listed = await s.runtime.api.request<{ questions: { id: string; kind: string }[] }>(
          'GET',
          `/api/questions?task_id=${s.taskId}&state=pending`,
        );
        return listed.body.questions[0];
      },
      { timeoutMs: RUNTIME_TIMEOUT_MS, logs: s.backend.logs, what: 'a permission question' },
    );
    expect(question.kind).toBe('permission');
    await s.runtime.api.request('POST', `/api/questions/${question.id}/answer`, {
      answers: [{ question_index: 0, option: 'Allow once' }],
    });
    expect((await writing).reply).toBe('permission=allow-once');
  });

  test('an agent that takes no system prompt gets it leading its first prompt, and only the first', async () => {
    const s = await launchAgentSession(cleanup, 'profile-setup-plain', { localPath: repository(cleanup, 'app') });
    expect(await agentSetup(s)).toMatchObject({ system_prompt_delivery: 'first_prompt', mode_id: 'default' });
    const first = await turn(s, 'report one');
    expect(first.reply).toBe(
      `mode=default|system_prompt=|prompt=<kandev-instructions>\n${s.session.launch_config.system_prompt.trim()}\n</kandev-instructions>\n\nreport one`,
    );
    expect((await turn(s, 'report two')).reply).toBe('mode=default|system_prompt=|prompt=report two');
  });

  test.each([
    [
      'ignores list_changed: its session is reopened before the next prompt, which says what changed',
      'profile-setup-plain',
      true,
    ],
    ['lists again on list_changed: the next prompt goes as written', 'profile-setup', false],
  ])('an agent that %s', async (_name, script, reopened) => {
    const s = await launchAgentSession(cleanup, script, {
      localPath: repository(cleanup, 'app'),
      env: { KANDEV_AGENTCTL_TOOLS_REFRESH_GRACE_MS: '300' },
    });
    const before = await turn(s, 'known tools');
    for (const tool of MR_TOOLS) expect(before.reply).not.toContain(tool);

    const gitlab = await s.runtime.api.repository(s.workspaceId, {
      local_path: repository(cleanup, 'web'),
      provider: 'gitlab',
    });
    const added = await s.runtime.api.request('POST', `/api/tasks/${s.taskId}/workspace-sources?wait=applied`, {
      sources: [{ repository_id: gitlab.id }],
    });
    expect(added.status).toBe(201);

    const after = await turn(s, 'known tools again');
    const [known, prompt] = after.reply.split('\nprompt=');
    for (const tool of MR_TOOLS) expect(known).toContain(tool);
    const notices = (await s.runtime.messages(s.taskId)).filter(
      (m) => m.type === 'session_event' && m.metadata.code === 'tools_reloaded',
    );
    if (reopened) {
      expect(prompt).toBe(
        `Note from kandev: your kandev tools changed since your last turn (added ${MR_TOOLS.join(', ')}).\n\nknown tools again`,
      );
      expect(notices).toHaveLength(1);
    } else {
      expect(prompt).toBe('known tools again');
      expect(notices).toEqual([]);
    }
  });

  test('an agent that never connects to its MCP server is reported: last_error, a notice, the prompt says so', async () => {
    const s = await launchAgentSession(cleanup, 'profile-no-mcp', {
      env: { KANDEV_AGENTCTL_MCP_CONNECT_TIMEOUT_MS: '300' },
    });
    expect(await agentSetup(s)).toMatchObject({ mcp_connected: false });
    expect(s.ready.last_error).toEqual(expect.stringContaining('did not list its MCP tools'));
    const { finished } = await turn(s, 'do the work');
    expect(finished).toMatchObject({
      status: 'completed',
      stop_reason: 'end_turn',
      error: expect.stringContaining('no kandev tools') as unknown,
    });
    const notices = (await s.runtime.messages(s.taskId)).filter((m) => m.type === 'session_event');
    expect(notices.map((m) => m.metadata)).toContainEqual(
      expect.objectContaining({ event: 'agent_notice', code: 'mcp_not_connected', level: 'warning' }),
    );
  });
});
