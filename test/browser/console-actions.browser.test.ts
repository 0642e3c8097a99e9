// The operator's actions in the console (Chromium, real backend, the scripted test agent): a prompt
// queued behind a running turn looks queued, cancelling the turn delivers it; removing a source (asked
// first); stopping (asked first) and resuming a session; archiving a task (asked first). Each checked
// against REST.
import type { Page } from 'playwright-core';
import { BackendApi } from '../helpers/backend-api';
import { useCleanup } from '../helpers/cleanup';
import { consoleBrowser, signedInPage } from '../helpers/console-browser';
import { TEST_AGENT_MAIN, writeAgentScript } from '../helpers/agent-sessions';
import { startBackend } from '../helpers/processes';

const SCRIPT = {
  turns: [{ match: { contains: 'hold' }, steps: [{ reply: 'Holding until cancelled.' }, { wait_for_cancel: true }] }],
  default: { steps: [{ reply: 'Scripted agent here. You said: {{prompt}}' }] },
};

/** Clicks an action that asks first, then confirms it. */
async function confirmed(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: label, exact: true }).first().click();
  await page.getByRole('button', { name: `Yes, ${label.toLowerCase()}` }).click();
}

describe('console actions in Chromium', () => {
  const cleanup = useCleanup();

  test('queued prompt, cancel turn, remove source, stop and resume a session, archive the task', async () => {
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const script = writeAgentScript(cleanup, SCRIPT);
    const profile = await api.create<{ id: string }>('/api/agent-profiles', {
      name: 'scripted',
      command: process.execPath,
      args: [TEST_AGENT_MAIN, '--script', script],
      supports_mcp: true,
    });
    const task = await api.task(await api.workspace(), { title: 'Actions', agent_profile_id: profile.id });
    await api.create(`/api/tasks/${task.id}/workspace-sources`, {
      sources: [{ remote_url: 'https://github.com/acme/actions.git' }],
    });
    const { session_id: sessionId } = await api.launch(task.id);

    const browser = await consoleBrowser(cleanup);
    const { page } = await signedInPage(browser, backend.ready.url, backend.apiToken);
    await page.goto(`${backend.ready.url}/#/tasks/${task.id}`);
    await page.getByTestId('chosen-session-state').filter({ hasText: 'waiting for input' }).waitFor();

    // A turn that holds; a second prompt waits behind it and says so, in the conversation and the queue.
    await page.getByLabel('Prompt', { exact: true }).fill('hold on');
    await page.getByRole('button', { name: 'Send prompt' }).click();
    await page.getByText('Holding until cancelled.').waitFor();
    await page.getByLabel('Prompt', { exact: true }).fill('next one please');
    await page.getByRole('button', { name: 'Send prompt' }).click();
    const queuedEntry = page.locator('li.message.queued', { hasText: 'next one please' });
    await queuedEntry.getByTestId('queued').waitFor();
    await page.getByRole('region', { name: 'Queued prompts' }).getByText('next one please').waitFor();

    // Cancel the turn: the queued prompt is delivered and answered; it no longer looks queued.
    await page.getByRole('button', { name: 'Cancel turn' }).click();
    await page.getByText('Turn cancelled.').waitFor();
    await page.getByText('Scripted agent here. You said: next one please').waitFor();
    await queuedEntry.waitFor({ state: 'detached' });
    const prompts = await api.prompts(sessionId);
    expect(prompts.map((p) => p.stop_reason)).toEqual(['cancelled', 'end_turn']);

    // Remove the source: asked first; "keep it" changes nothing.
    await page.getByRole('button', { name: 'Remove source' }).click();
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect((await api.request<{ providers: string[] }>('GET', `/api/tasks/${task.id}`)).body.providers).toEqual([
      'github',
    ]);
    await confirmed(page, 'Remove source');
    await page.getByTestId('providers').filter({ hasText: 'none' }).waitFor();
    expect((await api.request<{ providers: string[] }>('GET', `/api/tasks/${task.id}`)).body.providers).toEqual([]);

    // Stop the session (asked first): it is cancelled, its tools are not shown as served, no prompt box.
    await confirmed(page, 'Stop session');
    await page.getByTestId('chosen-session-state').filter({ hasText: 'cancelled' }).waitFor();
    await page.getByText('not served: the session is cancelled').waitFor();
    expect(await page.getByLabel('Prompt', { exact: true }).count()).toBe(0);
    expect((await api.request<{ state: string }>('GET', `/api/sessions/${sessionId}`)).body.state).toBe('cancelled');

    // Resume it: it runs again and takes prompts.
    await page.getByRole('button', { name: 'Resume session' }).click();
    await page.getByTestId('chosen-session-state').filter({ hasText: 'waiting for input' }).waitFor();
    await page.getByLabel('Prompt', { exact: true }).waitFor();

    // Archive the task (asked first): archived, no more launches.
    await confirmed(page, 'Archive task');
    await page.locator('.badge', { hasText: 'archived' }).waitFor();
    expect(await page.getByRole('button', { name: 'Launch session', exact: true }).isDisabled()).toBe(true);
    const archived = await api.request<{ archived_at: string | null }>('GET', `/api/tasks/${task.id}`);
    expect(archived.body.archived_at).not.toBeNull();
  });
});
