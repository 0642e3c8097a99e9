// The console's Settings page (Chromium, real backend): agent profiles (create with env values that
// are never shown back, change the permission policy, a refused delete in the operator's words, a
// delete asked first) and API tokens (created and shown once, revoked after asking: refused from then on).
import type { Page } from 'playwright-core';
import { BackendApi } from '../helpers/backend-api';
import { useCleanup } from '../helpers/cleanup';
import { consoleBrowser, signedInPage } from '../helpers/console-browser';
import { startBackend } from '../helpers/processes';
import { waitUntil } from '../helpers/wait';

interface ProfileBody {
  id: string;
  name: string;
  env_keys: string[];
  permission_policy: string;
}

async function confirmed(page: Page, scope: ReturnType<Page['locator']>, label: string): Promise<void> {
  await scope.getByRole('button', { name: label, exact: true }).click();
  await scope.getByRole('button', { name: `Yes, ${label.toLowerCase()}` }).click();
}

describe('console settings in Chromium', () => {
  const cleanup = useCleanup();

  test('agent profiles: create (env write-only), change policy, delete; API tokens: create once, revoke', async () => {
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const browser = await consoleBrowser(cleanup);
    const { page } = await signedInPage(browser, backend.ready.url, backend.apiToken);
    await page.goto(`${backend.ready.url}/#/settings`);

    // A profile with an env value: the list shows the key, never the value.
    const form = page.getByRole('form', { name: 'New agent profile' });
    await form.getByLabel('Name').fill('claude');
    await form.getByLabel('Command').fill('/usr/bin/claude-code-acp');
    await form.getByLabel('Arguments (one per line)').fill('--verbose');
    await form.getByLabel(/^Environment/).fill('ANTHROPIC_API_KEY=sk-very-secret');
    await form.getByRole('button', { name: 'Create profile' }).click();
    await page.getByText('Created claude.').waitFor();
    const row = page.locator('li.profile[data-profile="claude"]');
    await row.getByText('env ANTHROPIC_API_KEY').waitFor();
    expect(await page.content()).not.toContain('sk-very-secret');
    const listed = await api.request<{ agent_profiles: ProfileBody[] }>('GET', '/api/agent-profiles');
    const created = listed.body.agent_profiles.find((p) => p.name === 'claude');
    expect(created?.env_keys).toEqual(['ANTHROPIC_API_KEY']);

    // Bad input: a malformed env line is refused here, nothing sent.
    await form.getByLabel('Name').fill('broken');
    await form.getByLabel('Command').fill('/bin/true');
    await form.getByLabel(/^Environment/).fill('NOT AN ASSIGNMENT');
    await form.getByRole('button', { name: 'Create profile' }).click();
    await page.getByText('an env line is KEY=value').waitFor();
    const after = await api.request<{ agent_profiles: ProfileBody[] }>('GET', '/api/agent-profiles');
    expect(after.body.agent_profiles.map((p) => p.name)).toEqual(['claude']);

    // The permission policy, edited in place.
    await row.getByLabel('Permission requests').selectOption('allow_all');
    await waitUntil(
      async () =>
        (await api.request<ProfileBody>('GET', `/api/agent-profiles/${created?.id}`)).body.permission_policy ===
        'allow_all',
      { timeoutMs: 10_000, what: 'the policy change' },
    );

    // A profile a task uses cannot be deleted: the backend's reason, in the operator's words.
    const task = await api.task(await api.workspace(), { title: 'uses claude', agent_profile_id: created?.id });
    await confirmed(page, row, 'Delete profile');
    await row.getByText(/^Not possible now: .*is used by a task/).waitFor();
    await api.request('DELETE', `/api/tasks/${task.id}`); // archiving keeps the reference: a new profile then
    const spare = await api.create<{ id: string }>('/api/agent-profiles', {
      name: 'spare',
      command: '/bin/true',
      supports_mcp: false,
    });
    await page.reload();
    const spareRow = page.locator('li.profile[data-profile="spare"]');
    await confirmed(page, spareRow, 'Delete profile');
    await spareRow.waitFor({ state: 'detached' });
    expect((await api.request('GET', `/api/agent-profiles/${spare.id}`)).status).toBe(404);

    // A token: shown once, then only its prefix; revoking it (asked first) refuses it at once.
    await page.getByLabel('Token name').fill('ci');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByTestId('new-token').textContent()) ?? '';
    expect(token.length).toBeGreaterThan(20);
    expect(
      (await new BackendApi(backend.ready.url, token).request('GET', '/api/tasks?workspace_id=x')).status,
    ).not.toBe(401);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.content()).not.toContain(token);
    const ciRow = page.locator('li[data-token="ci"]');
    await ciRow.waitFor();
    await confirmed(page, ciRow, 'Revoke token');
    await ciRow.waitFor({ state: 'detached' });
    expect((await new BackendApi(backend.ready.url, token).request('GET', '/api/tokens')).status).toBe(401);
    // The console's own token is still listed and works.
    expect((await api.request('GET', '/api/tokens')).status).toBe(200);
  });
});
