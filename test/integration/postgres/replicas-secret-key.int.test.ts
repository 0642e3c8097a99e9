// Three backend replicas started with the production overlay's settings (the secret key and the API
// token as mounted 0600 files, one PostgreSQL database, a fresh data dir each start) share one key: a
// GitLab credential stored through one replica is opened and used by every replica, and still is after
// all three stopped and started again. A fourth replica without the key refuses to start, with one line.
import { request } from 'node:http';
import { createPostgresDatabase, testDatabaseUrl } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { GITLAB_TEST_HOST, GITLAB_TOKEN, startGitlabServer } from '../../helpers/gitlab-server';
import { startAgentctl, tempDir } from '../../helpers/processes';
import {
  type ProductionReplica,
  productionSecrets,
  startProductionReplica,
  startProductionReplicas,
} from '../../helpers/production-replicas';

const PROJECT = 'acme/platform/svc';
const IID = 7;

interface Lifecycle {
  last_evaluation: { reviewers_source: string; error: string | null } | null;
}

/** GET /api/workspaces with this Host header, as a client behind the Service sends it. */
function statusWithHost(replica: ProductionReplica, token: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const url = new URL('/api/workspaces', replica.url);
    const headers = { host, authorization: `Bearer ${token}` };
    const req = request(url, { headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('replicas from the production settings', () => {
  const cleanup = useCleanup();

  test('one secret key: a credential stored through one replica is used by all, across a restart of all', async () => {
    const databaseUrl = await testDatabaseUrl(tempDir(cleanup), cleanup);
    if (databaseUrl === undefined) throw new Error('replicas need PostgreSQL: run in the integration-pg project');
    const gitlab = await startGitlabServer(cleanup, { prefix: '/gitlab' });
    gitlab.setMr(PROJECT, IID, { state: 'opened' });
    const settings = {
      databaseUrl,
      secrets: productionSecrets(cleanup),
      agentctl: await startAgentctl(cleanup),
      env: { KANDEV_GITLAB_INSECURE_HOSTS: GITLAB_TEST_HOST },
    };
    const replicas = await startProductionReplicas(cleanup, settings, 3);
    const writer = replicas[0]!;
    expect(await statusWithHost(writer, settings.secrets.apiToken, 'kandev-backend:7420')).toBe(200);
    expect(await statusWithHost(writer, settings.secrets.apiToken, 'elsewhere.example:7420')).toBe(403);

    // Stored through one replica: sealed there with the shared key.
    const workspace = await writer.api.workspace();
    const put = await writer.api.request('PUT', `/api/workspaces/${workspace}/credentials/gitlab`, {
      token: GITLAB_TOKEN,
      base_url: gitlab.baseUrl,
    });
    expect(put).toMatchObject({ status: 200, body: { provider: 'gitlab', configured: true } });
    const repository = await writer.api.repository(workspace, { remote_url: `https://gitlab.com/${PROJECT}` });
    const task = await writer.api.task(workspace, { title: 'watch the MR', repository_ids: [repository.id] });
    const link = await writer.api.create<{ id: string }>(`/api/tasks/${task.id}/mrs`, {
      repository_id: repository.id,
      project_path: PROJECT,
      iid: IID,
    });
    // The switch an agent turns on with its MR automation tool: with it the rules need the reviewers.
    const db = createPostgresDatabase(databaseUrl, { min: 0, max: 1 });
    cleanup.defer(() => db.destroy());
    await db('task_mrs').where({ id: link.id }).update({ prompt_on_review_requested: true });

    // An evaluation without an observation reads the MR once with the workspace's own token, opened on
    // the replica that serves the request: 'fallback' with no error only when it opened and GitLab took it.
    const usesTheCredential = async (replica: ProductionReplica) => {
      const evaluated = await replica.api.request<Lifecycle>(
        'POST',
        `/api/tasks/${task.id}/mrs/${link.id}/lifecycle/evaluate`,
      );
      expect(evaluated.status).toBe(200);
      expect(evaluated.body.last_evaluation).toMatchObject({ reviewers_source: 'fallback', error: null });
      const listed = await replica.api.request('GET', `/api/workspaces/${workspace}/credentials`);
      expect(listed.body).toMatchObject({ credentials: [{ provider: 'gitlab', configured: true }] });
      for (const body of [evaluated.body, listed.body]) expect(JSON.stringify(body)).not.toContain(GITLAB_TOKEN);
    };
    for (const replica of replicas) await usesTheCredential(replica);

    // Every replica stops (a rollout of all pods); new ones start on fresh data dirs.
    for (const replica of replicas) expect(await replica.stop()).toEqual({ code: 0, signal: null });
    const restarted = await startProductionReplicas(cleanup, settings, 3);
    for (const replica of restarted) await usesTheCredential(replica);
    expect(gitlab.requests.length).toBeGreaterThan(0);
    expect(gitlab.requests.filter((r) => !r.authorized)).toEqual([]);

    // A pod without the key generates its own in its data dir and cannot open what the others sealed.
    const failed = await startProductionReplica(cleanup, settings, { withoutKey: true }).then(
      () => 'started',
      (error: Error) => error.message,
    );
    expect(failed).toContain('exited before ready (code 2');
    const fatal = failed.split('\n').filter((line) => line.includes('backend failed to start'));
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatch(/stored secrets cannot be decrypted with the secret key from \S+secret\.key/);
    expect(fatal[0]).toContain('a stored secret was sealed with key');
    expect(failed).not.toMatch(/\n\s+at /); // no stack trace
    for (const replica of restarted) await usesTheCredential(replica); // and it changed nothing
  });
});
