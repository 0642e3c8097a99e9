import { CreateWorkspaceBodySchema } from './workspace';

describe('CreateWorkspaceBodySchema', () => {
  test('trims the name', () => {
    expect(CreateWorkspaceBodySchema.parse({ name: ' ws ' })).toEqual({ name: 'ws' });
  });

  test.each([{}, { name: '' }, { name: 'ws', id: 'x' }, { name: 7 }])('rejects %j', (body) => {
    expect(CreateWorkspaceBodySchema.safeParse(body).success).toBe(false);
  });
});
