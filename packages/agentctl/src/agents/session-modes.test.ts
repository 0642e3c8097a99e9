import fc from 'fast-check';
import { PERMISSION_POLICIES } from '@kandev/protocol';
import { ALLOWING_MODE_IDS, ASKING_MODE_IDS, chooseMode } from './session-modes';

const offered = (...ids: string[]) => ({
  currentModeId: ids[0] ?? null,
  available: ids.map((id) => ({ id, name: id })),
});

describe('chooseMode', () => {
  test.each([
    ['ask', offered('auto', 'default', 'acceptEdits', 'plan'), { kind: 'set', modeId: 'default' }],
    [
      'ask',
      offered('read-only', 'workspace-write', 'agent', 'agent-full-access'),
      { kind: 'set', modeId: 'read-only' },
    ],
    ['deny_all', offered('default', 'autoEdit', 'yolo', 'plan'), { kind: 'set', modeId: 'default' }],
    ['allow_all', offered('default', 'autoEdit', 'yolo', 'plan'), { kind: 'set', modeId: 'yolo' }],
    ['allow_all', offered('auto', 'default', 'bypassPermissions'), { kind: 'set', modeId: 'bypassPermissions' }],
    ['allow_all', offered('agent', 'read-only', 'agent-full-access'), { kind: 'set', modeId: 'agent-full-access' }],
    ['allow_all', offered('auto', 'default'), { kind: 'set', modeId: 'default' }],
    ['ask', offered('auto', 'plan'), { kind: 'unavailable', offered: ['auto', 'plan'] }],
    ['ask', null, { kind: 'none' }],
    ['ask', offered(), { kind: 'none' }],
  ] as const)('%s with %j', (policy, modes, expected) => {
    expect(chooseMode(policy, modes)).toEqual(expected);
  });

  const modeIds = fc.uniqueArray(
    fc.oneof(fc.constantFrom(...ASKING_MODE_IDS, ...ALLOWING_MODE_IDS, 'auto', 'plan', 'agent'), fc.string()),
    { maxLength: 6 },
  );

  test('a chosen mode is always one the agent offers; ask and deny_all never choose a mode that asks nothing', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PERMISSION_POLICIES), modeIds, (policy, ids) => {
        const choice = chooseMode(policy, offered(...ids));
        if (choice.kind !== 'set') return;
        expect(ids).toContain(choice.modeId);
        if (policy !== 'allow_all') expect(ASKING_MODE_IDS).toContain(choice.modeId);
      }),
    );
  });

  test('an asking mode on offer is always found, whatever else is offered', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PERMISSION_POLICIES),
        modeIds,
        fc.constantFrom(...ASKING_MODE_IDS),
        (policy, ids, asking) => {
          expect(chooseMode(policy, offered(...ids, ...(ids.includes(asking) ? [] : [asking]))).kind).toBe('set');
        },
      ),
    );
  });
});
