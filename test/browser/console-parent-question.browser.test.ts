// A parent question in the console's timeline (Chromium, real backend and agentctl, the scripted test
// agent on both tasks): an autopilot child asks its parent with ask_parent_question_kandev, the parent's
// agent answers with message_task_kandev, and the child's timeline shows the question, first pending
// (before the parent has a session), then answered with the parent's reply and when.
import { join } from 'node:path';
import { BackendApi } from '../helpers/backend-api';
import { useCleanup } from '../helpers/cleanup';
import { consoleBrowser, signedInPage } from '../helpers/console-browser';
import { agentScript, TEST_AGENT_MAIN } from '../helpers/agent-runtime';
import { REPO_ROOT, startBackend } from '../helpers/processes';

describe('console timeline: parent questions in Chromium', () => {
  const cleanup = useCleanup();

  test("an autopilot child's question to its parent, pending then answered by the parent's agent", async () => {
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const profile = async (name: string, script: string) =>
      (
        await api.create<{ id: string }>('/api/agent-profiles', {
          name,
          command: process.execPath,
          args: [TEST_AGENT_MAIN, '--script', script],
          supports_mcp: true,
        })
      ).id;
    // The parent runs the test agent's README example: it answers the question prompt it is given.
    const parentProfile = await profile(
      'example parent',
      join(REPO_ROOT, 'packages/test-agent/examples/autopilot-parent.json'),
    );
    const childProfile = await profile('autopilot child', agentScript('autopilot-child'));
    const workspaceId = await api.workspace();
    const parent = await api.task(workspaceId, { title: 'Importer epic', agent_profile_id: parentProfile });
    const child = await api.task(workspaceId, {
      title: 'Importer storage',
      parent_id: parent.id,
      autopilot: true,
      agent_profile_id: childProfile,
    });
    const { session_id: childSession } = await api.launch(child.id);

    const browser = await consoleBrowser(cleanup);
    const { page } = await signedInPage(browser, backend.ready.url, backend.apiToken);
    await page.goto(`${backend.ready.url}/#/tasks/${child.id}`);
    await page.getByTestId('chosen-session-state').filter({ hasText: 'waiting for input' }).waitFor();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const asked = timeline.locator('li[data-kind="parent_question"]', { hasText: 'LEAF-Q Which database' });

    // The child asks while its parent has no session: the question waits, shown pending without an answer.
    expect((await api.queuePrompt(childSession, 'ASK-PARENT: decide the storage engine')).status).toBe(202);
    await page.getByText('asked my parent; ending my turn.').waitFor();
    await asked.locator('.badge', { hasText: 'pending' }).waitFor();
    await asked.getByText('Question to the parent task:').waitFor();
    expect(await asked.getByTestId('answer').count()).toBe(0);

    // The parent's session starts; its agent answers; the child's entry turns answered, with the reply.
    await api.launch(parent.id);
    await page.getByText('Go with the first option you offered.').first().waitFor();
    await asked.locator('.badge', { hasText: 'answered' }).waitFor();
    const answer = asked.getByTestId('answer').filter({ hasText: '→ Go with the first option you offered.' });
    await answer.waitFor();
    await answer.locator('time').waitFor();
    expect(await asked.locator('.badge', { hasText: 'pending' }).count()).toBe(0);
  });
});
