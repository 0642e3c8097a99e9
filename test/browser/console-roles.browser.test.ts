// The console shows the signed-in token's role and offers only what the role may do (Chromium, real
// backend): a viewer sees the board, a task and the settings with no form or button that changes
// anything; an operator gets task work but not tokens or agent profiles; an admin gets everything.
import type { Page } from 'playwright-core';
import { BackendApi } from '../helpers/backend-api';
import { useCleanup } from '../helpers/cleanup';
import { consoleBrowser, signedInPage } from '../helpers/console-browser';
import { startBackend } from '../helpers/processes';

/** Which of these controls the page shows (after the page has loaded: the heading is the barrier). */
async function offered(page: Page, names: string[]): Promise<string[]> {
  const shown: string[] = [];
  for (const name of names) if (await page.getByRole('button', { name, exact: true }).isVisible()) shown.push(name);
  return shown;
}

describe('console and token roles in Chromium', () => {
  const cleanup = useCleanup();

  test('viewer, operator and admin are each offered what their role may do', async () => {
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const workspace = await api.workspace('main');
    const task = await api.task(workspace, { title: 'watched' });
    await api.create('/api/agent-profiles', { name: 'agent', command: 'agent', supports_mcp: true });
    const browser = await consoleBrowser(cleanup);
    const url = backend.ready.url;
    const mint = async (role: string) =>
      (await api.create<{ token: string }>('/api/tokens', { name: `${role} browser`, role })).token;

    const seen: Record<string, unknown> = {};
    for (const role of ['viewer', 'operator', 'admin']) {
      const { page } = await signedInPage(browser, url, role === 'admin' ? backend.apiToken : await mint(role));
      await page.goto(`${url}/#/`);
      await page
        .getByTestId('whoami')
        .getByText(role === 'admin' ? /· admin/ : new RegExp(`· ${role}`))
        .waitFor();
      await page.getByText('watched').waitFor();
      const board = await offered(page, ['Create task']);
      await page.goto(`${url}/#/tasks/${task.id}`);
      await page.getByRole('heading', { name: 'Sessions' }).waitFor();
      const taskPage = await offered(page, ['Launch session', 'Add source', 'Archive task']);
      await page.goto(`${url}/#/settings`);
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      await page.locator('li.profile[data-profile="agent"]').waitFor();
      const settings = await offered(page, ['Create profile', 'Edit profile', 'Create token']);
      seen[role] = { board, taskPage, settings };
      await page.close();
    }
    expect(seen).toEqual({
      viewer: { board: [], taskPage: [], settings: [] },
      operator: { board: ['Create task'], taskPage: ['Launch session', 'Add source', 'Archive task'], settings: [] },
      admin: {
        board: ['Create task'],
        taskPage: ['Launch session', 'Add source', 'Archive task'],
        settings: ['Create profile', 'Edit profile', 'Create token'],
      },
    });
  });
});
