// The console's lists (Chromium, real backend): a board of 1,000 tasks (the newest on the first page,
// the oldest reached by "load more"), search and filters; the failed-session and question badges on
// cards; the sessions page with each failed session's error; the questions inbox with its counts and
// the answered questions (what, by whom, when). The board's reads are the server's sort, search and filters.
import { BackendApi } from '../helpers/backend-api';
import { useCleanup } from '../helpers/cleanup';
import { ASK_DATABASE_TURN, consoleBrowser, signedInPage } from '../helpers/console-browser';
import { TEST_AGENT_MAIN, writeAgentScript } from '../helpers/agent-sessions';
import { startBackend } from '../helpers/processes';

const ASKING = {
  turns: [ASK_DATABASE_TURN],
  default: { steps: [{ reply: 'ok' }] },
};

const title = (n: number) => `Task ${String(n).padStart(4, '0')}`;

describe('console lists in Chromium', () => {
  const cleanup = useCleanup();

  test('a board of 1,000 tasks: newest first, the oldest by load more; search and filters', async () => {
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const workspace = await api.workspace();
    for (let n = 1; n <= 1000; n++) await api.task(workspace, { title: title(n) });

    const browser = await consoleBrowser(cleanup);
    const { page } = await signedInPage(browser, backend.ready.url, backend.apiToken);
    // The task reads the page makes: the backend sorts, searches and filters, a page at a time.
    const reads: URLSearchParams[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/tasks') reads.push(url.searchParams);
    });
    await page.goto(backend.ready.url);
    const card = (n: number) => page.locator('.card', { hasText: title(n) });
    await card(1000).waitFor();
    await page.getByTestId('task-count').filter({ hasText: '50 tasks shown, more below' }).waitFor();
    expect(await card(1).count()).toBe(0);

    // Load more until the oldest is there; then there is no more.
    const more = page.getByRole('button', { name: 'Load more' });
    for (let shown = 50; shown < 1000; shown += 50) {
      await more.click();
      await page
        .getByTestId('task-count')
        .filter({ hasText: `${shown + 50} tasks shown` })
        .waitFor();
    }
    await card(1).waitFor();
    expect(await more.count()).toBe(0);
    // Cards are links in a list: reachable with the keyboard.
    await card(1).focus();
    expect(await page.evaluate<string>('document.activeElement?.textContent ?? ""')).toContain(title(1));

    // Search by title: the address keeps it (a link to the filtered board).
    await page.getByLabel('Search titles').fill('Task 0500');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByTestId('task-count').filter({ hasText: '1 task shown (filtered)' }).waitFor();
    await card(500).waitFor();
    expect(new URL(page.url()).hash).toBe('#/?q=Task+0500');
    expect(reads.at(-1)?.get('q')).toBe('Task 0500');
    expect(reads.every((query) => query.get('limit') === '50' && query.get('sort') === 'created_desc')).toBe(true);
    // Filters: no task is done; clearing them brings the newest back.
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await page
      .getByTestId('task-count')
      .filter({ hasText: /^50 tasks shown, more below$/ })
      .waitFor();
    await page.getByLabel('State').selectOption('done');
    await page.getByTestId('task-count').filter({ hasText: '0 tasks shown (filtered)' }).waitFor();
    await page.getByLabel('State').selectOption('todo');
    await page.getByTestId('task-count').filter({ hasText: '50 tasks shown (filtered), more below' }).waitFor();
    await card(1000).waitFor();
    expect(reads.at(-1)?.get('state')).toBe('todo');
  });

  test('failed and question badges, the sessions page with errors, the questions inbox with counts', async () => {
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const workspace = await api.workspace();
    const asking = await api.create<{ id: string }>('/api/agent-profiles', {
      name: 'asking',
      command: process.execPath,
      args: [TEST_AGENT_MAIN, '--script', writeAgentScript(cleanup, ASKING)],
      supports_mcp: true,
    });
    const broken = await api.create<{ id: string }>('/api/agent-profiles', {
      name: 'broken',
      command: '/nonexistent/agent-binary',
      supports_mcp: false,
    });
    const curious = await api.task(workspace, { title: 'Curious task', agent_profile_id: asking.id });
    const doomed = await api.task(workspace, { title: 'Doomed task', agent_profile_id: broken.id });
    const session = await api.launch(curious.id);
    await api.request('POST', `/api/sessions/${session.session_id}/prompts`, { prompt: 'please ask me' });
    await api.request('POST', `/api/tasks/${doomed.id}/sessions`, {}); // fails: no such agent binary

    const browser = await consoleBrowser(cleanup);
    const { page } = await signedInPage(browser, backend.ready.url, backend.apiToken);
    await page.goto(backend.ready.url);
    await page.locator('.card', { hasText: 'Curious task' }).getByText('1 question').waitFor();
    await page.locator('.card', { hasText: 'Doomed task' }).getByText('failed session').waitFor();
    await page.getByTestId('questions-count').filter({ hasText: '1' }).waitFor();
    await page.getByLabel('With a failed session').check();
    await page.getByTestId('task-count').filter({ hasText: '1 task shown (filtered)' }).waitFor();
    expect(await page.locator('.card', { hasText: 'Curious task' }).count()).toBe(0);

    // The sessions page: both sessions, the failed one with its error; filtered by state.
    await page.getByRole('link', { name: 'Sessions' }).click();
    const doomedRow = page.locator('tr', { hasText: 'Doomed task' });
    await doomedRow.locator('.badge[data-state="failed"]').waitFor();
    await doomedRow.locator('.error-text').waitFor();
    await page.locator('tr', { hasText: 'Curious task' }).waitFor();
    await page.getByLabel('Session state').selectOption('failed');
    await page.locator('tr', { hasText: 'Curious task' }).waitFor({ state: 'detached' });
    await doomedRow.waitFor();

    // The inbox: the question with its task and count; answering it empties the inbox, live.
    await page.getByRole('link', { name: /^Questions/ }).click();
    await page.getByTestId('inbox-count').filter({ hasText: '1 waiting for you, in 1 task.' }).waitFor();
    await page.getByRole('link', { name: 'Curious task' }).first().waitFor();
    await page.getByRole('button', { name: 'Postgres' }).click();
    await page.getByTestId('inbox-count').filter({ hasText: '0 waiting for you.' }).waitFor();
    // Answered, it stays in the inbox: what was answered, by whom, when; the counts per state.
    const answered = page.locator('ul.answered li', { hasText: 'Which database?' });
    await answered
      .getByTestId('answer')
      .filter({ hasText: /→ Postgres by \S+/ })
      .waitFor();
    await answered.locator('time').waitFor();
    await page.getByTestId('question-counts').filter({ hasText: '1 answered · 0 expired · 0 cancelled' }).waitFor();
    await page.getByTestId('questions-count').waitFor({ state: 'detached' });
  });
});
