// More of the operator's actions in the console (Chromium, real backend and agentctl, the scripted test
// agent): a task's state moved (an allowed move, and refused ones in the operator's words, nothing
// changed), a queued prompt cancelled before delivery, a failed session relaunched as a new one, a task
// archived and unarchived, and an agent profile edited (env values write-only: set, never shown, then
// removed). Each checked against REST; the profile form passes axe-core in light and dark.
import type { Locator, Page } from 'playwright-core';
import { BackendApi } from '../helpers/backend-api';
import { useCleanup } from '../helpers/cleanup';
import { consoleBrowser, screenshotsOf, sendPrompt, seriousViolations, signedInPage } from '../helpers/console-browser';
import { TEST_AGENT_MAIN, writeAgentScript } from '../helpers/agent-sessions';
import { startBackend } from '../helpers/processes';

const SCRIPT = {
  turns: [
    { match: { contains: 'hold' }, steps: [{ reply: 'Holding until cancelled.' }, { wait_for_cancel: true }] },
    { match: { contains: 'die' }, steps: [{ exit: { code: 3 } }] },
  ],
  default: { steps: [{ reply: 'echo: {{prompt}}' }] },
};

interface TaskBody {
  state: string;
  archived_at: string | null;
}
interface ProfileBody {
  name: string;
  env_keys: string[];
}

/** Clicks an action that asks first, then confirms it. */
async function confirmed(scope: Page | Locator, label: string): Promise<void> {
  await scope.getByRole('button', { name: label, exact: true }).first().click();
  await scope.getByRole('button', { name: `Yes, ${label.toLowerCase()}` }).click();
}

describe('console operator actions in Chromium', () => {
  const cleanup = useCleanup();

  test('task state, cancel a queued prompt, relaunch a failed session, unarchive, edit a profile', async () => {
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const profile = await api.create<{ id: string }>('/api/agent-profiles', {
      name: 'scripted',
      command: process.execPath,
      args: [TEST_AGENT_MAIN, '--script', writeAgentScript(cleanup, SCRIPT)],
      supports_mcp: true,
    });
    const task = await api.task(await api.workspace(), { title: 'Operated', agent_profile_id: profile.id });
    const { session_id: first } = await api.launch(task.id);
    const taskNow = async () => (await api.request<TaskBody>('GET', `/api/tasks/${task.id}`)).body;

    const browser = await consoleBrowser(cleanup);
    const { page } = await signedInPage(browser, backend.ready.url, backend.apiToken, { bypassCSP: true });
    await page.goto(`${backend.ready.url}/#/tasks/${task.id}`);
    await page.getByTestId('chosen-session-state').filter({ hasText: 'waiting for input' }).waitFor();

    // A move the table refuses (todo → review): the backend's reason in the operator's words, nothing changed.
    const moveTo = page.getByLabel('Move to');
    await moveTo.selectOption('review');
    await page.getByText(/^Not possible now: .*cannot move from todo to review/).waitFor();
    expect(await moveTo.inputValue()).toBe('todo');
    expect((await taskNow()).state).toBe('todo');
    // An allowed move: the task says so, and the stale error is gone.
    await moveTo.selectOption('in_progress');
    await page.getByTestId('task-state').filter({ hasText: 'in_progress' }).waitFor();
    await page.getByText(/^Not possible now/).waitFor({ state: 'detached' });
    expect((await taskNow()).state).toBe('in_progress');

    // A prompt queued behind a held turn, cancelled before delivery (asked first): it never runs.
    await sendPrompt(page, 'hold on');
    await page.getByText('Holding until cancelled.').waitFor();
    await sendPrompt(page, 'never deliver this');
    const queue = page.getByRole('region', { name: 'Queued prompts' });
    await queue.getByText('never deliver this').waitFor();
    await confirmed(queue, 'Cancel prompt');
    await queue.waitFor({ state: 'detached' });
    const cancelled = (await api.prompts(first)).find((p) => p.prompt === 'never deliver this');
    expect(cancelled).toMatchObject({ status: 'cancelled', delivered: false });
    await page.getByRole('button', { name: 'Cancel turn' }).click();
    await page.getByText('Turn cancelled.').waitFor();
    await page.getByTestId('chosen-session-state').filter({ hasText: 'waiting for input' }).waitFor();
    // Barrier: a later prompt is answered, and the cancelled one still was not.
    await sendPrompt(page, 'after the cancel');
    await page.getByText('echo: after the cancel').waitFor();
    expect(await page.getByText('echo: never deliver this').count()).toBe(0);

    // The agent dies: the session fails; relaunching makes a new session that runs.
    await sendPrompt(page, 'die now');
    await page.getByTestId('chosen-session-state').filter({ hasText: 'failed' }).waitFor();
    await page.getByRole('button', { name: 'Relaunch session' }).click();
    await page.getByText('Relaunched as a new session.').waitFor();
    await page.getByTestId('session-state').nth(1).waitFor();
    await page.getByTestId('chosen-session-state').filter({ hasText: 'waiting for input' }).waitFor();
    const sessions = await api.request<{ sessions: { id: string; state: string }[] }>(
      'GET',
      `/api/tasks/${task.id}/sessions`,
    );
    expect(sessions.body.sessions.map((s) => s.id === first || s.state)).toEqual([true, 'waiting_for_input']);
    expect(sessions.body.sessions[0]?.state).toBe('failed');

    // Archive (asked first), a refused state move while archived, then unarchive: listed and launchable again.
    await confirmed(page, 'Archive task');
    await page.locator('.badge', { hasText: 'archived' }).waitFor();
    await moveTo.selectOption('done');
    await page.getByText(/^Not possible now: .*archived/).waitFor();
    expect((await taskNow()).state).toBe('in_progress');
    await page.getByRole('button', { name: 'Unarchive task' }).click();
    await page.getByText('Unarchived.').waitFor();
    await page.locator('.badge', { hasText: 'archived' }).waitFor({ state: 'detached' });
    expect((await taskNow()).archived_at).toBeNull();
    expect(await page.getByRole('button', { name: 'Launch session', exact: true }).isDisabled()).toBe(false);

    // Edit the profile: an env value is set (never shown back), then the name changed and the variable removed.
    await page.goto(`${backend.ready.url}/#/settings`);
    const row = page.locator('li.profile[data-profile="scripted"]');
    await row.getByRole('button', { name: 'Edit profile' }).click();
    const form = page.getByRole('form', { name: 'Edit profile scripted' });
    await form.getByLabel(/^Set environment variables/).fill('SECRET_TOKEN=very-secret-value');
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      found.push(...(await seriousViolations(page)).map((v) => `${colorScheme}: ${v}`));
      await screenshotsOf(page, `settings-edit-profile${colorScheme === 'dark' ? '-dark' : ''}`);
    }
    expect(found).toEqual([]);
    await form.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Saved scripted.').waitFor();
    await row.getByText('env SECRET_TOKEN').waitFor();
    expect(await page.content()).not.toContain('very-secret-value');
    const edited = await api.request<ProfileBody>('GET', `/api/agent-profiles/${profile.id}`);
    expect(edited.body.env_keys).toEqual(['SECRET_TOKEN']);
    expect(JSON.stringify(edited.body)).not.toContain('very-secret-value');

    await row.getByRole('button', { name: 'Edit profile' }).click();
    const again = page.getByRole('form', { name: 'Edit profile scripted' });
    await again.getByLabel('Name').fill('renamed');
    await again.getByRole('checkbox', { name: 'SECRET_TOKEN' }).check();
    await again.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Saved scripted.').waitFor();
    await page.locator('li.profile[data-profile="renamed"]').getByText('env none').waitFor();
    const renamed = await api.request<ProfileBody>('GET', `/api/agent-profiles/${profile.id}`);
    expect(renamed.body).toMatchObject({ name: 'renamed', env_keys: [] });
  });
});
