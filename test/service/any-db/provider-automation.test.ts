// The four review-automation tool handlers in process, on a fresh SQLite file per test: their effect in
// the store, and every refusal (bad input, no provider repository, no credentials, a link that is not
// the task's) writing nothing. Provider compatibility is read from the database at call time.
import { AppError } from '@kandev/protocol';
import type { AgentSession } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import {
  callTool,
  createProviderAutomationEnv,
  insertSession,
  type ProviderAutomationEnv,
  toolContext,
} from '../../helpers/provider-automation';

const TOKEN = 'ghp_secret-token-0123456789';
const TOOLS = [
  'get_task_pr_automation_kandev',
  'update_task_pr_automation_kandev',
  'get_task_mr_automation_kandev',
  'update_task_mr_automation_kandev',
];
const OFF = {
  auto_fix_enabled: false,
  auto_merge_enabled: false,
  prompt_on_review_requested: false,
  prompt_on_merged: false,
  prompt_on_closed: false,
};

describe('review-automation tools (in process)', () => {
  const cleanup = useCleanup();

  /** Two GitHub repositories and one GitLab one on task `t` (with a session), task `other` on gh1. */
  async function setup(options: { credentials?: boolean } = {}) {
    const env = await createProviderAutomationEnv(cleanup);
    await env.uow.read.workspaces.insert({ id: 'w', name: 'w', createdAt: '2026-11-30T10:00:00.000Z' });
    const repo = async (url: string) => (await env.repositories.create({ workspace_id: 'w', remote_url: url })).id;
    const gh1 = await repo('https://github.com/acme/api');
    const gh2 = await repo('https://github.com/acme/web');
    const gl = await repo('https://gitlab.com/acme/group/svc');
    const task = await env.tasks.create({ workspace_id: 'w', title: 't', repository_ids: [gh1, gh2, gl] });
    const other = await env.tasks.create({ workspace_id: 'w', title: 'other', repository_ids: [gh1] });
    const t = task.task.id;
    await env.links.linkPr(t, { repository_id: gh1, number: 1 });
    await env.links.linkPr(t, { repository_id: gh1, number: 3 });
    await env.links.linkPr(t, { repository_id: gh2, number: 2 });
    await env.links.linkPr(other.task.id, { repository_id: gh1, number: 7 });
    await env.links.linkMr(t, { repository_id: gl, project_path: 'acme/group/svc', iid: 5 });
    if (options.credentials !== false) {
      await env.credentials.put('w', 'github', { token: TOKEN, username: 'octo' });
      await env.credentials.put('w', 'gitlab', { token: `${TOKEN}-gl` });
    }
    const session = await insertSession(env, 's', t, 'w');
    const call = (tool: string, args: unknown, as: AgentSession = session) => callTool(env, as, 'w', tool, args);
    return { env, gh1, gh2, gl, t, other: other.task.id, session, call };
  }

  /** Every link row, to prove a refused call wrote nothing. */
  async function snapshot(env: ProviderAutomationEnv) {
    return {
      prs: await env.db('task_prs').orderBy('id').select(),
      mrs: await env.db('task_mrs').orderBy('id').select(),
    };
  }

  async function options(env: ProviderAutomationEnv, taskId: string) {
    const prs = await env.links.listPrs(taskId);
    return Object.fromEntries(prs.map((pr) => [`${pr.repositoryId}#${pr.number}`, pr.options]));
  }

  async function expectRefused(promise: Promise<unknown>, code: string, message?: RegExp): Promise<AppError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    const appError = error as AppError;
    expect(appError.code).toBe(code);
    if (message !== undefined) expect(appError.message).toMatch(message);
    expect(appError.message).not.toContain(TOKEN);
    return appError;
  }

  test('the registry serves the four tools', async () => {
    const { env } = await setup();
    expect(Object.keys(env.handlers)).toEqual(expect.arrayContaining(TOOLS));
  });

  test('get_task_pr_automation_kandev lists the task’s PRs with their switches; bad input is refused', async () => {
    const { env, gh1, gh2, call } = await setup();
    const reply = await call('get_task_pr_automation_kandev', {});
    expect(reply.isError).toBeFalsy();
    expect(reply.structured).toEqual({
      prs: [
        { repository_id: gh1, pr_number: 1, state: 'open', ...OFF },
        { repository_id: gh1, pr_number: 3, state: 'open', ...OFF },
        { repository_id: gh2, pr_number: 2, state: 'open', ...OFF },
      ].sort((a, b) => (a.repository_id + a.pr_number).localeCompare(b.repository_id + b.pr_number)),
    });
    expect(reply.text).toMatch(/^3 GitHub pull requests linked to this task:/);
    expect(reply.text).not.toContain(TOKEN);
    expect(await call('get_task_pr_automation_kandev', undefined)).toEqual(reply);

    const before = await snapshot(env);
    await expectRefused(call('get_task_pr_automation_kandev', { pr_number: 1 }), 'invalid_argument', /pr_number/);
    await expectRefused(call('get_task_pr_automation_kandev', 'x'), 'invalid_argument');
    expect(await snapshot(env)).toEqual(before);
  });

  test('update_task_pr_automation_kandev with repository_id + pr_number changes ONLY that PR', async () => {
    const { env, gh1, gh2, t, other, call } = await setup();
    const reply = await call('update_task_pr_automation_kandev', {
      repository_id: gh1,
      pr_number: 3,
      auto_merge_enabled: true,
      prompt_on_merged: true,
    });
    expect(reply.structured).toEqual({
      prs: [
        { repository_id: gh1, pr_number: 3, state: 'open', ...OFF, auto_merge_enabled: true, prompt_on_merged: true },
      ],
    });
    expect(reply.text).toMatch(/^Updated 1 pull request:/);
    expect(await options(env, t)).toEqual({
      [`${gh1}#1`]: OFF,
      [`${gh1}#3`]: { ...OFF, auto_merge_enabled: true, prompt_on_merged: true },
      [`${gh2}#2`]: OFF,
    });
    // Switches left out stay as they are.
    await call('update_task_pr_automation_kandev', { repository_id: gh1, pr_number: 3, prompt_on_merged: false });
    expect((await options(env, t))[`${gh1}#3`]).toEqual({ ...OFF, auto_merge_enabled: true });
    expect(await options(env, other)).toEqual({ [`${gh1}#7`]: OFF });
  });

  test('update_task_pr_automation_kandev without an identity applies to every linked PR of the task', async () => {
    const { env, gh1, gh2, t, other, call } = await setup();
    const reply = await call('update_task_pr_automation_kandev', { auto_fix_enabled: true });
    expect(reply.text).toMatch(/^Updated 3 pull requests:/);
    const on = { ...OFF, auto_fix_enabled: true };
    expect(await options(env, t)).toEqual({ [`${gh1}#1`]: on, [`${gh1}#3`]: on, [`${gh2}#2`]: on });
    expect(await options(env, other)).toEqual({ [`${gh1}#7`]: OFF });
  });

  test('invalid update input (partial identity, no switch, unknown field, wrong type) writes nothing', async () => {
    const { env, gh1, call } = await setup();
    const before = await snapshot(env);
    const invalid: [unknown, RegExp][] = [
      [{ repository_id: gh1, auto_fix_enabled: true }, /repository_id and pr_number together/],
      [{ pr_number: 1, auto_fix_enabled: true }, /repository_id and pr_number together/],
      [{ repository_id: gh1, pr_number: 1 }, /at least one of/],
      [{}, /at least one of/],
      [{ auto_fix_enabled: true, task_id: 'other' }, /task_id/],
      [{ auto_fix_enabled: 'yes' }, /auto_fix_enabled/],
      [{ repository_id: gh1, pr_number: 0, auto_fix_enabled: true }, /pr_number/],
      [{ repository_id: '', pr_number: 1, auto_fix_enabled: true }, /repository_id/],
    ];
    for (const [args, message] of invalid) {
      await expectRefused(call('update_task_pr_automation_kandev', args), 'invalid_argument', message);
    }
    await expectRefused(
      call('update_task_mr_automation_kandev', { mr_iid: 5, auto_fix_enabled: true }),
      'invalid_argument',
    );
    await expectRefused(
      call('update_task_mr_automation_kandev', { pr_number: 5, auto_fix_enabled: true }),
      'invalid_argument',
    );
    expect(await snapshot(env)).toEqual(before);
  });

  test('GitLab MR tools: get lists the MR, update changes it (one or all); bad input writes nothing', async () => {
    const { env, gl, t, call } = await setup();
    const listed = await call('get_task_mr_automation_kandev', {});
    expect(listed.structured).toEqual({
      mrs: [{ repository_id: gl, mr_iid: 5, project_path: 'acme/group/svc', state: 'opened', ...OFF }],
    });
    expect(listed.text).toContain(`repository ${gl} !5 (opened)`);
    await expectRefused(call('get_task_mr_automation_kandev', { mr_iid: 5 }), 'invalid_argument');

    await call('update_task_mr_automation_kandev', { repository_id: gl, mr_iid: 5, prompt_on_review_requested: true });
    await call('update_task_mr_automation_kandev', { prompt_on_closed: true });
    const [mr] = await env.links.listMrs(t);
    expect(mr?.options).toEqual({ ...OFF, prompt_on_review_requested: true, prompt_on_closed: true });

    const before = await snapshot(env);
    await expectRefused(
      call('update_task_mr_automation_kandev', { repository_id: gl, mr_iid: 6, auto_fix_enabled: true }),
      'not_found',
      /!6/,
    );
    await expectRefused(call('update_task_mr_automation_kandev', { repository_id: gl, mr_iid: 5 }), 'invalid_argument');
    expect(await snapshot(env)).toEqual(before);
  });

  test('no credentials for the provider: every call is refused and nothing is written', async () => {
    const { env, gh1, call } = await setup({ credentials: false });
    const before = await snapshot(env);
    for (const [tool, args] of [
      ['get_task_pr_automation_kandev', {}],
      ['update_task_pr_automation_kandev', { repository_id: gh1, pr_number: 1, auto_fix_enabled: true }],
      ['get_task_mr_automation_kandev', {}],
      ['update_task_mr_automation_kandev', { auto_fix_enabled: true }],
    ] as const) {
      await expectRefused(call(tool, args), 'failed_precondition', /No (GitHub|GitLab) credentials are configured/);
    }
    // GitHub credentials alone do not unlock the GitLab tools.
    await env.credentials.put('w', 'github', { token: TOKEN });
    await call('update_task_pr_automation_kandev', { repository_id: gh1, pr_number: 1, auto_fix_enabled: true });
    await expectRefused(call('get_task_mr_automation_kandev', {}), 'failed_precondition', /GitLab credentials/);
    expect((await snapshot(env)).mrs).toEqual(before.mrs);
  });

  test('GitHub repositories detached: PR tools are refused although the links exist', async () => {
    const { env, gh1, gh2, t, call } = await setup();
    // One detached: its PR can no longer be targeted; "all" touches only the still-attached repository.
    await env.sources.remove(t, gh2);
    let before = await snapshot(env);
    await expectRefused(
      call('update_task_pr_automation_kandev', { repository_id: gh2, pr_number: 2, auto_fix_enabled: true }),
      'failed_precondition',
      /no longer attached/,
    );
    expect(await snapshot(env)).toEqual(before);
    await call('update_task_pr_automation_kandev', { auto_merge_enabled: true });
    expect((await options(env, t))[`${gh2}#2`]).toEqual(OFF);
    expect((await call('get_task_pr_automation_kandev', {})).structured?.prs).toHaveLength(2);

    // Both detached: the task has no committed GitHub repository, so every PR call is refused.
    await env.sources.remove(t, gh1);
    expect(await env.links.listPrs(t)).toHaveLength(3);
    before = await snapshot(env);
    for (const [tool, args] of [
      ['get_task_pr_automation_kandev', {}],
      ['update_task_pr_automation_kandev', { repository_id: gh1, pr_number: 1, auto_fix_enabled: true }],
      ['update_task_pr_automation_kandev', { auto_fix_enabled: true }],
    ] as const) {
      await expectRefused(call(tool, args), 'permission_denied', /no GitHub repository attached/);
    }
    expect(await snapshot(env)).toEqual(before);
    // The GitLab repository is still attached: MR tools keep working.
    expect((await call('get_task_mr_automation_kandev', {})).structured?.mrs).toHaveLength(1);
  });

  test('a task that never had a GitHub repository is refused the PR tools', async () => {
    const { env, gl, call } = await setup();
    const gitlabOnly = await env.tasks.create({ workspace_id: 'w', title: 'gl', repository_ids: [gl] });
    const session = await insertSession(env, 's-gl', gitlabOnly.task.id, 'w');
    await expectRefused(call('get_task_pr_automation_kandev', {}, session), 'permission_denied');
    await expectRefused(
      call('update_task_pr_automation_kandev', { auto_fix_enabled: true }, session),
      'permission_denied',
    );
    expect((await call('get_task_mr_automation_kandev', {}, session)).structured).toEqual({ mrs: [] });
  });

  test('a PR of another task cannot be targeted (and is not touched by "all")', async () => {
    const { env, gh1, other, call } = await setup();
    const before = await snapshot(env);
    await expectRefused(
      call('update_task_pr_automation_kandev', { repository_id: gh1, pr_number: 7, auto_fix_enabled: true }),
      'not_found',
      /No pull request #7 of repository .* is linked to this task/,
    );
    expect(await snapshot(env)).toEqual(before);
    await call('update_task_pr_automation_kandev', { auto_fix_enabled: true });
    expect(await options(env, other)).toEqual({ [`${gh1}#7`]: OFF });
    const listed = (await call('get_task_pr_automation_kandev', {})).structured?.prs as { pr_number: number }[];
    expect(listed.map((pr) => pr.pr_number).sort()).toEqual([1, 2, 3]);
  });

  test('the identity is the session binding: a context that does not match its session row is refused', async () => {
    const { env, other, session } = await setup();
    const before = await snapshot(env);
    const foreign = await insertSession(env, 's-other', other, 'w');
    const tool = 'update_task_pr_automation_kandev';
    const handler = env.handlers[tool];
    if (handler === undefined) throw new Error('missing handler');
    const args = { auto_fix_enabled: true };
    await expectRefused(handler({ ...toolContext(session, 'w', tool), session: foreign }, args), 'permission_denied');
    await expectRefused(handler(toolContext(session, 'another-workspace', tool), args), 'permission_denied');
    expect(await snapshot(env)).toEqual(before);
  });
});
