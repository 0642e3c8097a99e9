import { started } from '../testing/agent-runner-harness';

const request = {
  toolCallId: 'tc-1',
  title: 'Write README.md',
  toolKind: 'edit',
  options: [
    { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ],
};

describe('AgentRunner permission requests', () => {
  test.each([
    ['allow_all', { outcome: 'selected', optionId: 'allow' }],
    ['deny_all', { outcome: 'selected', optionId: 'reject' }],
    // No asker wired (no Attach hub): ask rejects.
    ['ask', { outcome: 'selected', optionId: 'reject' }],
  ] as const)('policy %s', async (permissionPolicy, expected) => {
    const t = await started({ permissionPolicy });
    await expect(t.conn().events.onPermission('acp-1', request)).resolves.toEqual(expected);
  });
});
