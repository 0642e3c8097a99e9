// A token limited to one workspace names another workspace's repository or task where it files a task
// of its own: the answer is exactly the one an unknown id gets (status, code, message with the id
// swapped), so the token learns nothing of what exists elsewhere; nothing is written either way.
import { databaseDigester } from '@kandev/backend/testing';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { startRolesBackend } from '../../helpers/roles-backend';

interface ErrorBody {
  error: { code: string; message: string; details?: unknown; request_id?: string };
}

describe('a workspace-limited token learns nothing of another workspace', () => {
  const cleanup = useCleanup();

  test('another workspace’s repository or parent answers as an unknown id', async () => {
    const { env, baseUrl, admin, tokenFor } = await startRolesBackend(cleanup);
    const own = await admin.workspace('own');
    const other = await admin.workspace('other');
    const foreignRepository = await admin.repository(other, { remote_url: 'https://github.com/acme/other.git' });
    const foreignTask = await admin.task(other, { title: 'elsewhere' });
    const scoped = new BackendApi(baseUrl, await tokenFor('operator', [own]));
    const digest = await databaseDigester(env.dataDir!, cleanup);
    const before = await digest();

    /** The answer with the id named replaced, so a foreign and an unknown id compare equal. */
    const answer = async (fields: Record<string, unknown>, id: string) => {
      const response = await scoped.request<ErrorBody>('POST', '/api/tasks', {
        workspace_id: own,
        title: 't',
        ...fields,
      });
      const { request_id: _requestId, ...error } = response.body.error;
      return { status: response.status, error: JSON.parse(JSON.stringify(error).split(id).join('<id>')) as unknown };
    };
    const unknownRepository = await answer({ repository_ids: ['no-such-repository'] }, 'no-such-repository');
    expect(unknownRepository.status).toBe(404);
    expect(await answer({ repository_ids: [foreignRepository.id] }, foreignRepository.id)).toEqual(unknownRepository);

    const unknownParent = await answer({ parent_id: 'no-such-task' }, 'no-such-task');
    expect(unknownParent.status).toBe(404);
    expect(await answer({ parent_id: foreignTask.id }, foreignTask.id)).toEqual(unknownParent);

    expect(await digest()).toEqual(before);
  });
});
