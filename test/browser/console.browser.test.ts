// The web console in a real browser (Debian's Chromium through playwright-core) against the real built
// backend, its local agentctl and the scripted test agent: sign in by typing the token, create a
// workspace and a task, launch a session, see its tools, send a prompt and watch the reply arrive,
// answer an operator question by clicking its option (and see the agent's tool call with its input),
// add a GitHub source (and another client a GitLab one) and see the tool list grow, all without
// reloading the page (the tool list opened from its collapsed panel); then sign out, and sign in again with a one-time link. Each page is saved as a screenshot under test-results/.
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { BackendApi } from '../helpers/backend-api';
import { launchChromium, SCREENSHOT_DIR, screenshot } from '../helpers/browser';
import { useCleanup } from '../helpers/cleanup';
import { TEST_AGENT_MAIN, writeAgentScript } from '../helpers/agent-sessions';
import { startBackend } from '../helpers/processes';

const SCRIPT = {
  turns: [
    {
      match: { contains: 'ask me' },
      steps: [
        {
          call_tool: {
            name: 'ask_user_question_kandev',
            arguments: {
              questions: [
                {
                  id: 'db',
                  prompt: 'Which database should the importer use?',
                  options: [{ label: 'SQLite' }, { label: 'Postgres' }],
                },
              ],
              context: 'Choosing storage for the importer.',
            },
          },
        },
        { capture: { name: 'choice', pattern: '-> (.+)$', flags: 'm', from: 'last_tool_result' } },
        { reply: 'The operator chose {{var:choice}}.' },
      ],
    },
  ],
  default: { steps: [{ reply: 'Scripted agent here. You said: {{prompt}}' }] },
};

/** The tool rows the session panel lists, by name. */
const toolRow = (page: Page, name: string) => page.locator(`ul.tools li[data-tool="${name}"]`);

describe('web console in Chromium', () => {
  const cleanup = useCleanup();

  test('sign in, create a task, run the scripted agent, answer its question, add a source live', async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const script = writeAgentScript(cleanup, SCRIPT);
    await api.create('/api/agent-profiles', {
      name: 'scripted',
      command: process.execPath,
      args: [TEST_AGENT_MAIN, '--script', script],
      supports_mcp: true,
    });

    const browser = await launchChromium(cleanup);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const violations: string[] = [];
    const streams: string[] = []; // the live event streams the page opened, with their media type
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/events') {
        streams.push(`${response.status()} ${response.headers()['content-type'] ?? ''}`);
      }
    });
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });

    // Sign in: the page never says where the token is kept; the token goes into an HttpOnly cookie.
    await page.goto(backend.ready.url);
    await page.getByLabel('API token').fill(backend.apiToken);
    expect(await page.content()).not.toContain(backend.ready.apiTokenFile ?? 'api-token');
    await screenshot(page, 'login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Create workspace' }).waitFor();
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'kandev_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate<string>('document.cookie')).not.toContain(backend.apiToken);

    // A workspace, then a task that runs the scripted agent.
    await page.getByLabel('Workspace name').fill('console');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByLabel('Task title').fill('Importer');
    await page.getByLabel('Agent profile').selectOption({ label: 'scripted' });
    await page.getByRole('button', { name: 'Create task' }).click();
    await page.getByRole('heading', { name: 'Importer' }).waitFor();

    // Launch: the session row, its question capability and its tools with their input schemas.
    await page.getByRole('button', { name: 'Launch session' }).click();
    // The tool list is collapsed (the conversation comes first): open it.
    await page.locator('.tools-panel > summary').click();
    await page.getByTestId('question-capability').filter({ hasText: 'user' }).waitFor();
    await toolRow(page, 'ask_user_question_kandev').waitFor();
    await toolRow(page, 'ask_user_question_kandev').locator('summary').click();
    await toolRow(page, 'ask_user_question_kandev').locator('pre', { hasText: '"questions"' }).waitFor();
    expect(await toolRow(page, 'get_task_pr_automation_kandev').count()).toBe(0);

    // A prompt: the operator's message, then the agent's reply arrives without a reload.
    await page.getByLabel('Prompt', { exact: true }).fill('hello from the console');
    await page.getByRole('button', { name: 'Send prompt' }).click();
    await page.getByText('Scripted agent here. You said: hello from the console').waitFor();

    // An operator question: its options are buttons; a click answers it and the agent goes on.
    await page.getByLabel('Prompt', { exact: true }).fill('please ask me something');
    await page.getByRole('button', { name: 'Send prompt' }).click();
    await page
      .getByRole('region', { name: 'Questions for you' })
      .getByText('Which database should the importer use?')
      .waitFor();
    await screenshot(page, 'task-question');
    await page.getByRole('button', { name: 'Postgres' }).click();
    await page.getByText('The operator chose Postgres.').waitFor();
    // The agent's tool call is an entry of its own: its status, and its input collapsed until asked for.
    const call = page.locator('li[data-type="tool_call"]', { hasText: 'ask_user_question_kandev' });
    await call.getByTestId('tool-status').filter({ hasText: 'completed' }).waitFor();
    await call.getByText('Input').click();
    await call.locator('pre', { hasText: 'Which database should the importer use?' }).waitFor();
    await page.getByRole('region', { name: 'Questions for you' }).waitFor({ state: 'detached' });

    // A GitHub source: the providers and the session's tool list change live.
    await page.getByLabel('Repository remote URL').fill('https://github.com/acme/importer.git');
    await page.getByRole('button', { name: 'Add source' }).click();
    await page.getByTestId('providers').filter({ hasText: 'github' }).waitFor();
    await toolRow(page, 'get_task_pr_automation_kandev').waitFor();
    await page.getByTestId('session-providers').filter({ hasText: 'github' }).waitFor();

    // Another client adds a GitLab source over REST: the open page follows on its own (no reload).
    const taskId = decodeURIComponent(new URL(page.url()).hash.replace('#/tasks/', ''));
    const added = await api.request('POST', `/api/tasks/${taskId}/workspace-sources`, {
      sources: [{ remote_url: 'https://gitlab.com/acme/importer-infra.git' }],
    });
    expect(added.status).toBe(201);
    await toolRow(page, 'get_task_mr_automation_kandev').waitFor();
    await page.getByTestId('providers').filter({ hasText: 'github, gitlab' }).waitFor();
    await screenshot(page, 'task');

    // The board: the task under its state.
    await page.getByRole('link', { name: 'kandev' }).click();
    await page.locator('.card', { hasText: 'Importer' }).waitFor();
    await screenshot(page, 'board');

    // Sign out: the cookie is gone and the sign-in page is back.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API token').waitFor();
    expect((await context.cookies()).find((c) => c.name === 'kandev_session')).toBeUndefined();

    // A one-time sign-in link (what a CLI can print) signs a fresh browser in without the token.
    const link = await api.create<{ url: string }>('/api/console/login-links', {});
    const other = await (await browser.newContext()).newPage();
    await other.goto(link.url);
    await other.locator('.card', { hasText: 'Importer' }).waitFor();
    const third = await (await browser.newContext()).newPage();
    await third.goto(link.url); // used once already: the sign-in page says so
    await third.getByText('That sign-in link is used, expired or unknown').waitFor();
    await third.getByLabel('API token').waitFor();
    expect(violations).toEqual([]);
    // Live updates came over the event stream (the 3 s re-read is only for backends without it).
    expect(streams.length).toBeGreaterThan(0);
    expect(streams.every((s) => s.startsWith('200 text/event-stream'))).toBe(true);
  });
});
