// A task's timeline in the console (Chromium, real backend and agentctl, the scripted test agent):
// agent text visible while its turn still holds (streamed, not shown only when the message ends); each
// kind of entry, session-attributed and dated: a prompt from delivered to its outcome with a duration,
// a tool call with its arguments and result, an operator question and a permission request with what
// was answered by whom, a tools revision with its added names, a state change with its error. The
// page with its timeline passes axe-core in light and dark and is saved at both sizes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BackendApi } from '../helpers/backend-api';
import { useCleanup } from '../helpers/cleanup';
import {
  ASK_DATABASE_TURN,
  consoleBrowser,
  screenshotsOf,
  sendPrompt,
  seriousViolations,
  signedInPage,
} from '../helpers/console-browser';
import { TEST_AGENT_MAIN, writeAgentScript } from '../helpers/agent-sessions';
import { startBackend } from '../helpers/processes';

const SCRIPT = {
  turns: [
    {
      match: { contains: 'STREAM' },
      steps: [{ reply: 'first half,' }, { wait_for_file: 'release-stream' }, { reply: ' then the rest.' }],
    },
    ASK_DATABASE_TURN,
    {
      match: { contains: 'permission' },
      steps: [
        { request_permission: { title: 'Write README.md', kind: 'edit' } },
        { reply: 'permission outcome: {{var:permission}}' },
      ],
    },
    { match: { contains: 'die' }, steps: [{ exit: { code: 3 } }] },
  ],
  default: { steps: [{ reply: 'echo: {{prompt}}' }] },
};

describe('console timeline in Chromium', () => {
  const cleanup = useCleanup();

  test('streamed text before the turn ends; every kind of timeline entry; axe light and dark', async () => {
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const profile = await api.create<{ id: string }>('/api/agent-profiles', {
      name: 'scripted',
      command: process.execPath,
      args: [TEST_AGENT_MAIN, '--script', writeAgentScript(cleanup, SCRIPT)],
      supports_mcp: true,
    });
    const task = await api.task(await api.workspace(), { title: 'History', agent_profile_id: profile.id });
    const { session_id: sessionId } = await api.launch(task.id);

    const browser = await consoleBrowser(cleanup);
    const { page } = await signedInPage(browser, backend.ready.url, backend.apiToken, { bypassCSP: true });
    await page.goto(`${backend.ready.url}/#/tasks/${task.id}`);
    await page.getByTestId('chosen-session-state').filter({ hasText: 'waiting for input' }).waitFor();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const entry = (kind: string, text: string | RegExp) =>
      timeline.locator(`li[data-kind="${kind}"]`, { hasText: text });

    // Streaming: the first half shows while the agent holds its turn (it cannot end before the file exists).
    await sendPrompt(page, 'STREAM please');
    const reply = page.locator('li.message.agent', { hasText: 'first half,' });
    await reply.waitFor();
    expect(await reply.textContent()).not.toContain('then the rest');
    await page.getByTestId('chosen-session-state').filter({ hasText: 'running' }).waitFor();
    const streamed = entry('prompt', 'STREAM please');
    await streamed.getByText('delivered', { exact: true }).waitFor();
    writeFileSync(join(backend.dataDir, 'workspaces', task.id, 'release-stream'), '');
    await reply.filter({ hasText: 'first half, then the rest.' }).waitFor();
    // The prompt's outcome and duration, its session, a dated time.
    await streamed.getByText('completed', { exact: true }).waitFor();
    await streamed.getByText(/ended .*\(end turn\)/).waitFor();
    await streamed.getByTestId('duration').waitFor();
    await streamed.getByText(`session ${sessionId.slice(0, 8)}`).waitFor();
    const year = String(new Date().getUTCFullYear());
    expect(await streamed.locator('time').first().textContent()).toContain(year);

    // An operator question, answered here: the tool call with arguments and result, the answer with who and when.
    await sendPrompt(page, 'please ask me');
    await page.getByRole('button', { name: 'Postgres' }).click();
    await page.getByText('Thanks.').waitFor();
    const asked = entry('question', 'Which database?');
    await asked
      .getByTestId('answer')
      .filter({ hasText: /→ Postgres by \S+ at/ })
      .waitFor();
    await asked.locator('time').nth(1).waitFor();
    const call = entry('tool_call', 'ask_user_question_kandev');
    await call.getByText('completed').waitFor();
    await call.getByTestId('duration').waitFor();
    await call.getByText('Arguments').click();
    await call.locator('pre', { hasText: 'Which database?' }).waitFor();
    await call.getByText('Result').click();
    await call.locator('pre', { hasText: 'The operator answered' }).waitFor();

    // A permission request, allowed once here: kept in the timeline with the answer.
    await sendPrompt(page, 'permission please');
    await page.getByRole('button', { name: 'Allow once' }).click();
    await page.getByText('permission outcome: allow-once').waitFor();
    await entry('question', 'Permission request')
      .getByTestId('answer')
      .filter({ hasText: /→ Allow once by \S+/ })
      .waitFor();

    // A source with a provider: a tools revision naming the tools it added.
    await api.create(`/api/tasks/${task.id}/workspace-sources`, {
      sources: [{ remote_url: 'https://github.com/acme/history.git' }],
    });
    await entry('tools_revision', /added: .*get_task_pr_automation_kandev/).waitFor();

    // The agent dies: a state change to failed with its error.
    await sendPrompt(page, 'die now');
    await page.getByTestId('chosen-session-state').filter({ hasText: 'failed' }).waitFor();
    const failed = entry('state_change', '→ failed');
    await failed.waitFor();
    await failed.locator('.error-text').waitFor();
    expect((await failed.locator('.error-text').textContent())?.trim()).not.toBe('');
    // Every entry names its session.
    const items = await timeline.locator('li[data-kind]').all();
    const kinds = await Promise.all(
      items.map(
        async (li) => `${await li.getAttribute('data-kind')} ${((await li.textContent()) ?? '').includes('session ')}`,
      ),
    );
    expect(new Set(kinds.map((k) => k.split(' ')[0]))).toEqual(
      new Set(['prompt', 'tool_call', 'question', 'state_change', 'tools_revision']),
    );
    expect(kinds.filter((k) => k.endsWith('false'))).toEqual([]);

    // The page with its timeline: no serious axe violation, light and dark; screenshots at both sizes.
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      found.push(...(await seriousViolations(page)).map((v) => `${colorScheme}: ${v}`));
      await screenshotsOf(page, `task-timeline${colorScheme === 'dark' ? '-dark' : ''}`);
    }
    expect(found).toEqual([]);
  });
});
