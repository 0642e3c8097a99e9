import { AppError } from '@kandev/protocol';
import { CreateTaskBodySchema, rejectImmutableTaskFields, UpdateTaskBodySchema } from './task';

describe('CreateTaskBodySchema', () => {
  test('minimal body; autopilot stays undefined (the service defaults it to false)', () => {
    expect(CreateTaskBodySchema.parse({ workspace_id: 'w', title: ' t ' })).toEqual({ workspace_id: 'w', title: 't' });
  });

  test.each([
    ['an unknown field', { workspace_id: 'w', title: 't', priority: 1 }],
    ['a camelCase field', { workspace_id: 'w', title: 't', parentId: 'p' }],
    ['a blank title', { workspace_id: 'w', title: '  ' }],
    ['a non-boolean autopilot', { workspace_id: 'w', title: 't', autopilot: 'yes' }],
    ['an empty repository id', { workspace_id: 'w', title: 't', repository_ids: [''] }],
    ['a missing workspace', { title: 't' }],
  ])('rejects %s', (_name, body) => {
    expect(CreateTaskBodySchema.safeParse(body).success).toBe(false);
  });
});

describe('UpdateTaskBodySchema', () => {
  test.each([{}, { title: 'x' }, { parent_id: null }, { parent_id: 'p', title: 'x' }, { state: 'done' }])(
    'accepts %j',
    (body) => {
      expect(UpdateTaskBodySchema.safeParse(body).success).toBe(true);
    },
  );

  test.each([{ state: 'sleeping' }, { autopilot: false }, { workspace_id: 'w' }])('rejects %j', (body) => {
    expect(UpdateTaskBodySchema.safeParse(body).success).toBe(false);
  });
});

describe('rejectImmutableTaskFields', () => {
  test.each([{ autopilot: true }, { autopilot: false }, { autopilot: null, title: 'x' }])(
    'any autopilot in an update is rejected: %j',
    (body) => {
      expect(() => rejectImmutableTaskFields(body)).toThrow(
        new AppError('invalid_argument', 'autopilot is fixed at task creation'),
      );
    },
  );

  test.each([{}, { title: 'x' }, null, 'text', undefined])('%j passes', (body) => {
    expect(() => rejectImmutableTaskFields(body)).not.toThrow();
  });
});
