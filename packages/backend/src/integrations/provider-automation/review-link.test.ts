import { AppError } from '@kandev/protocol';
import type { Repository } from '../../catalogue/repositories/repository';
import { assertLinkableRepository, LinkMrBodySchema, LinkPrBodySchema } from './review-link';
import { PutCredentialBodySchema } from '../../catalogue/credentials/workspace-credential';

function repository(provider: Repository['provider']): Repository {
  return {
    id: 'r',
    workspaceId: 'w',
    sourceType: 'remote',
    provider,
    providerHost: null,
    owner: 'acme',
    name: 'api',
    remoteUrl: null,
    localPath: null,
    identityKey: 'k',
    createdAt: '2026-11-30T10:00:00.000Z',
  };
}

const codeOf = (work: () => void): string | undefined => {
  try {
    work();
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
};

describe('assertLinkableRepository', () => {
  test.each([
    ['github', repository('github'), true, undefined],
    ['gitlab', repository('gitlab'), true, undefined],
    ['github', undefined, false, 'not_found'],
    ['github', repository('github'), false, 'failed_precondition'],
    ['github', repository('gitlab'), true, 'invalid_argument'],
    ['gitlab', repository(null), true, 'invalid_argument'],
  ] as const)('%s link through %j (attached: %s) -> %s', (provider, repo, attached, code) => {
    expect(codeOf(() => assertLinkableRepository(provider, 't', 'r', repo, attached))).toBe(code);
  });
});

describe('REST bodies', () => {
  test('PR: repository_id and a positive number, nothing else', () => {
    expect(LinkPrBodySchema.safeParse({ repository_id: 'r', number: 1 }).success).toBe(true);
    for (const body of [
      { repository_id: 'r', number: 0 },
      { repository_id: 'r' },
      { repository_id: 'r', number: 1, x: 1 },
    ]) {
      expect(LinkPrBodySchema.safeParse(body).success).toBe(false);
    }
  });

  test.each([
    ['acme/svc', true],
    ['acme/group/sub/svc', true],
    [' acme/svc ', true],
    ['svc', false],
    ['/acme/svc', false],
    ['acme/svc/', false],
    ['acme//svc', false],
  ])('MR project_path %j -> %s', (projectPath, ok) => {
    expect(LinkMrBodySchema.safeParse({ repository_id: 'r', project_path: projectPath, iid: 1 }).success).toBe(ok);
  });

  test('credentials: a non-blank token, an optional username, nothing else', () => {
    expect(PutCredentialBodySchema.safeParse({ token: 't' }).success).toBe(true);
    expect(PutCredentialBodySchema.safeParse({ token: 't', username: null }).success).toBe(true);
    for (const body of [{ token: '' }, { token: '  ' }, {}, { token: 't', scopes: [] }, { token: 't', username: '' }]) {
      expect(PutCredentialBodySchema.safeParse(body).success).toBe(false);
    }
  });
});
