// Every console page in Chromium, light and dark (prefers-color-scheme): axe-core finds no serious or
// critical violation, nothing scrolls sideways at 390 px, and each page is saved as a screenshot at
// 1440×900 and 390×844 under test-results/ (console-<page>[-dark]-desktop.png / -phone.png).
import type { Page } from 'playwright-core';
import { BackendApi } from '../helpers/backend-api';
import { useCleanup } from '../helpers/cleanup';
import {
  ASK_DATABASE_TURN,
  consoleBrowser,
  screenshotsOf,
  seriousViolations,
  signedInPage,
} from '../helpers/console-browser';
import { TEST_AGENT_MAIN, writeAgentScript } from '../helpers/agent-sessions';
import { startBackend } from '../helpers/processes';

const SCRIPT = {
  turns: [ASK_DATABASE_TURN],
  default: { steps: [{ reply: 'A long reply, to see how the conversation wraps on a phone: {{prompt}}' }] },
};

interface PageCase {
  name: string;
  hash: string;
  /** What shows once the page has loaded. */
  ready: (page: Page) => Promise<void>;
}

describe('console pages: accessibility and screenshots', () => {
  const cleanup = useCleanup();

  test('every page, light and dark: no serious axe violation, no sideways scroll at 390 px', async () => {
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const profile = await api.create<{ id: string }>('/api/agent-profiles', {
      name: 'scripted',
      command: process.execPath,
      args: [TEST_AGENT_MAIN, '--script', writeAgentScript(cleanup, SCRIPT)],
      supports_mcp: true,
      env: { EXAMPLE_KEY: 'never shown' },
    });
    const broken = await api.create<{ id: string }>('/api/agent-profiles', {
      name: 'broken',
      command: '/nonexistent/agent-binary',
      supports_mcp: false,
    });
    const workspace = await api.workspace();
    const task = await api.task(workspace, { title: 'Import the billing data', agent_profile_id: profile.id });
    await api.create(`/api/tasks/${task.id}/workspace-sources`, {
      sources: [{ remote_url: 'https://github.com/acme/a-rather-long-repository-name-for-wrapping.git' }],
    });
    const session = await api.launch(task.id);
    await api.request('POST', `/api/sessions/${session.session_id}/prompts`, { prompt: 'hello there' });
    await api.request('POST', `/api/sessions/${session.session_id}/prompts`, { prompt: 'please ask me' });
    const doomed = await api.task(workspace, { title: 'Doomed task', agent_profile_id: broken.id });
    await api.request('POST', `/api/tasks/${doomed.id}/sessions`, {});
    await api.task(workspace, { title: 'Autopilot subtask', autopilot: true, agent_profile_id: profile.id });

    const cases: PageCase[] = [
      {
        name: 'board',
        hash: '#/',
        ready: (p) => p.locator('.card', { hasText: 'Doomed task' }).getByText('failed session').waitFor(),
      },
      { name: 'task', hash: `#/tasks/${task.id}`, ready: (p) => p.getByText('Which database?').first().waitFor() },
      {
        name: 'task-failed',
        hash: `#/tasks/${doomed.id}`,
        ready: (p) => p.getByTestId('session-last-error').waitFor(),
      },
      { name: 'sessions', hash: '#/sessions', ready: (p) => p.locator('tr', { hasText: 'Doomed task' }).waitFor() },
      {
        name: 'questions',
        hash: '#/questions',
        ready: (p) => p.getByTestId('inbox-count').filter({ hasText: '1 waiting' }).waitFor(),
      },
      {
        name: 'settings',
        hash: '#/settings',
        ready: (p) => p.locator('li.profile[data-profile="scripted"]').waitFor(),
      },
      { name: 'not-found', hash: '#/nowhere', ready: (p) => p.getByRole('heading', { name: 'Not found' }).waitFor() },
    ];

    const browser = await consoleBrowser(cleanup);
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      const suffix = colorScheme === 'dark' ? '-dark' : '';
      // The sign-in page, signed out.
      const context = await browser.newContext({
        colorScheme,
        bypassCSP: true,
        viewport: { width: 1440, height: 900 },
      });
      const login = await context.newPage();
      await login.goto(backend.ready.url);
      await login.getByLabel('API token').waitFor();
      found.push(...(await seriousViolations(login)).map((v) => `login ${colorScheme}: ${v}`));
      await screenshotsOf(login, `login${suffix}`);
      await context.close();

      const { page } = await signedInPage(browser, backend.ready.url, backend.apiToken, {
        colorScheme,
        bypassCSP: true,
      });
      for (const c of cases) {
        await page.goto(`${backend.ready.url}/${c.hash}`);
        await c.ready(page);
        if (c.name === 'task') await page.locator('.tools-panel > summary').click(); // open: checked too
        found.push(...(await seriousViolations(page)).map((v) => `${c.name} ${colorScheme}: ${v}`));
        await screenshotsOf(page, `${c.name}${suffix}`);
      }
    }
    expect(found).toEqual([]);
  });
});
