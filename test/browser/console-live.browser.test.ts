// The console's live view in Chromium against real backends: a backend restart while a task page is
// open (a banner while it is down, an action's failure in the operator's words, the true state within
// 5 s of the restart, no stale error left), the 404 view for unknown routes and ids (and no previous
// task's data shown for one), and a deep link kept through sign-in.
import type { Page } from 'playwright-core';
import { BackendApi } from '../helpers/backend-api';
import { useCleanup } from '../helpers/cleanup';
import { consoleBrowser, signedInPage } from '../helpers/console-browser';
import { TEST_AGENT_MAIN, writeAgentScript } from '../helpers/agent-sessions';
import { killPid, startBackend, stopProcess } from '../helpers/processes';

const banner = (page: Page) => page.getByRole('status').filter({ hasText: 'Disconnected from the backend' });

describe('console live view in Chromium', () => {
  const cleanup = useCleanup();

  test('a backend restart: a banner while down, then the true state within 5 s, no stale error', async () => {
    const first = await startBackend(cleanup);
    const port = first.ready.httpPort;
    const api = new BackendApi(first.ready.url, first.apiToken);
    const script = writeAgentScript(cleanup, { turns: [], default: { steps: [{ reply: 'ok: {{prompt}}' }] } });
    const profile = await api.create<{ id: string }>('/api/agent-profiles', {
      name: 'scripted',
      command: process.execPath,
      args: [TEST_AGENT_MAIN, '--script', script],
      supports_mcp: true,
    });
    const task = await api.task(await api.workspace(), { title: 'Survives restarts', agent_profile_id: profile.id });
    await api.launch(task.id);

    const browser = await consoleBrowser(cleanup);
    const { page } = await signedInPage(browser, first.ready.url, first.apiToken);
    await page.goto(`${first.ready.url}/#/tasks/${task.id}`);
    await page.getByTestId('chosen-session-state').filter({ hasText: 'waiting for input' }).waitFor();
    expect(await banner(page).count()).toBe(0);

    // Down: the backend and its agentctl die (the session cannot survive that).
    await stopProcess(first.child, { graceMs: 0, signal: 'SIGKILL' });
    killPid(first.ready.agentctl.pid);
    await banner(page).waitFor();
    // An action while down fails in the operator's words, not the browser's.
    await page.getByLabel('Prompt', { exact: true }).fill('are you there?');
    await page.getByRole('button', { name: 'Send prompt' }).click();
    await page.getByText('The backend is unreachable').first().waitFor();
    expect(await page.getByText('Failed to fetch').count()).toBe(0);

    // Up again on the same port and data dir: the page re-reads on reconnect and shows what is true now.
    const second = await startBackend(cleanup, { KANDEV_DATA_DIR: first.dataDir, KANDEV_HTTP_PORT: String(port) });
    const again = new BackendApi(second.ready.url, second.apiToken);
    const sessions = await again.request<{ sessions: { state: string }[] }>('GET', `/api/tasks/${task.id}/sessions`);
    const truth = sessions.body.sessions[0]?.state ?? '';
    expect(truth).not.toBe('waiting_for_input'); // its agent is gone: the backend says so
    await page
      .getByTestId('latest-session-state')
      .filter({ hasText: truth.replaceAll('_', ' ') })
      .waitFor({ timeout: 5_000 });
    await banner(page).waitFor({ state: 'detached' });
    await page.locator('.banner').waitFor({ state: 'detached' });
    // The failure from while it was down is gone once a read succeeded.
    await page.getByLabel('Prompt', { exact: true }).waitFor({ state: 'detached' }); // a failed session takes no prompt
    expect(await page.getByText('The backend is unreachable').count()).toBe(0);
  });

  test('404 for unknown routes and ids, no previous task shown; a deep link survives sign-in', async () => {
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const workspace = await api.workspace();
    const task = await api.task(workspace, { title: 'Deep-linked task' });
    const browser = await consoleBrowser(cleanup);

    // Signed out, a link to the task: sign in, and the task opens (not the board).
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${backend.ready.url}/#/tasks/${task.id}`);
    await page.getByLabel('API token').fill(backend.apiToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Deep-linked task' }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/tasks/${task.id}`);

    // Another id in the address: the page never shows the previous task for it.
    await page.evaluate(`location.hash = '#/tasks/no-such-task'`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Deep-linked task' }).count()).toBe(0);
    await page.getByText('There is no task no-such-task.').waitFor();

    // An unknown route is a 404 view too, not the board.
    await page.evaluate(`location.hash = '#/no/such/page'`);
    await page.getByText('There is no page /no/such/page in the console.').waitFor();
    expect(await page.getByRole('heading', { name: 'Tasks' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Back to the board' }).click();
    await page.getByRole('heading', { name: 'Tasks' }).waitFor();
    await page.locator('.card', { hasText: 'Deep-linked task' }).waitFor();
  });
});
