import fc from 'fast-check';
import { AppError } from '@kandev/protocol';
import type { TaskAttachment } from '../../catalogue/tasks/task';
import { AddWorkspaceSourcesBodySchema, planBatch, WorkspaceSourceSchema } from './workspace-source';

const at = (repositoryId: string, baseBranch: string | null = null): TaskAttachment => ({ repositoryId, baseBranch });

function failure(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
  }
  throw new Error('expected an AppError');
}

describe('WorkspaceSourceSchema', () => {
  test.each([
    { repository_id: 'r1' },
    { remote_url: 'https://gitlab.com/a/b' },
    { remote_url: 'git@github.com:a/b.git', provider: 'github', base_branch: 'release/1.2' },
    { remote_url: 'https://git.example/a/b', provider: null },
    { local_path: '/srv/b' },
  ])('accepts %j', (source) => {
    expect(WorkspaceSourceSchema.safeParse(source).success).toBe(true);
  });

  test.each([
    ['nothing', {}],
    ['two kinds at once', { remote_url: 'https://gitlab.com/a/b', local_path: '/srv/b' }],
    ['an id with a base branch', { repository_id: 'r1', base_branch: 'main' }],
    ['a local path with a provider', { local_path: '/srv/b', provider: 'github' }],
    ['an unknown field', { remote_url: 'https://gitlab.com/a/b', branch: 'main' }],
    ['a blank id', { repository_id: ' ' }],
    ['a branch with a space', { remote_url: 'https://gitlab.com/a/b', base_branch: 'my branch' }],
    ['a branch with a control character', { remote_url: 'https://gitlab.com/a/b', base_branch: 'a\u0007b' }],
  ])('rejects %s', (_name, source) => {
    expect(WorkspaceSourceSchema.safeParse(source).success).toBe(false);
  });

  test('a batch holds 1 to 100 sources and nothing else', () => {
    const one = { repository_id: 'r1' };
    expect(AddWorkspaceSourcesBodySchema.safeParse({ sources: [one] }).success).toBe(true);
    expect(AddWorkspaceSourcesBodySchema.safeParse({ sources: [] }).success).toBe(false);
    expect(AddWorkspaceSourcesBodySchema.safeParse({ sources: Array(101).fill(one) }).success).toBe(false);
    expect(AddWorkspaceSourcesBodySchema.safeParse({ sources: [one], dry_run: true }).success).toBe(false);
  });
});

describe('planBatch', () => {
  test.each<[string, TaskAttachment[], TaskAttachment[], TaskAttachment[]]>([
    ['new repositories, in request order', [at('a')], [at('c'), at('b', 'main')], [at('c'), at('b', 'main')]],
    ['exact duplicates of what the task has are dropped', [at('a'), at('b', 'main')], [at('a'), at('b', 'main')], []],
    ['no base branch asked: a duplicate whatever the attached branch', [at('b', 'main')], [at('b')], []],
    ['repeats within the batch collapse', [], [at('c'), at('c')], [at('c')]],
    ['a later repeat may add the branch', [], [at('c'), at('c', 'dev')], [at('c', 'dev')]],
  ])('%s', (_name, existing, requested, expected) => {
    expect(planBatch(existing, requested)).toEqual(expected);
  });

  test('another base branch for an attached repository is a conflict (409), nothing planned', () => {
    const error = failure(() => planBatch([at('a', 'main')], [at('b'), at('a', 'dev')]));
    expect(error.code).toBe('failed_precondition');
    expect(error.details).toEqual({ repository_id: 'a', base_branch: 'main' });
  });

  test('two base branches for one repository within a batch are invalid (400)', () => {
    expect(failure(() => planBatch([], [at('c', 'main'), at('c', 'dev')])).code).toBe('invalid_argument');
  });

  const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e');
  const attachments = fc.uniqueArray(fc.record({ repositoryId: ids, baseBranch: fc.constant(null) }), {
    selector: (a) => a.repositoryId,
  });
  const requests = fc.array(fc.record({ repositoryId: ids, baseBranch: fc.constant(null) }), { maxLength: 8 });

  test('adds exactly the repositories the task lacks, once each; applying the plan makes a replay empty', () => {
    fc.assert(
      fc.property(attachments, requests, (existing, requested) => {
        const planned = planBatch(existing, requested);
        const had = new Set(existing.map((a) => a.repositoryId));
        const wanted = [...new Set(requested.map((r) => r.repositoryId))].filter((id) => !had.has(id));
        expect(planned.map((a) => a.repositoryId)).toEqual(wanted);
        expect(planBatch([...existing, ...planned], requested)).toEqual([]);
      }),
    );
  });
});
