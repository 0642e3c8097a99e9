import { CreateRepositoryBodySchema } from './repository';

describe('CreateRepositoryBodySchema', () => {
  test.each([
    { workspace_id: 'w', remote_url: 'https://github.com/a/b' },
    { workspace_id: 'w', local_path: '/srv/b', provider: 'github', name: 'B' },
    { workspace_id: 'w', remote_url: 'git@gitlab.com:a/b.git', provider: null },
  ])('accepts %j', (body) => {
    expect(CreateRepositoryBodySchema.safeParse(body).success).toBe(true);
  });

  test.each([
    ['an unknown field', { workspace_id: 'w', remote_url: 'https://github.com/a/b', branch: 'main' }],
    ['both sources', { workspace_id: 'w', remote_url: 'https://github.com/a/b', local_path: '/srv/b' }],
    ['no source', { workspace_id: 'w' }],
    ['a non-string provider', { workspace_id: 'w', remote_url: 'https://github.com/a/b', provider: 1 }],
  ])('rejects %s', (_name, body) => {
    expect(CreateRepositoryBodySchema.safeParse(body).success).toBe(false);
  });
});
