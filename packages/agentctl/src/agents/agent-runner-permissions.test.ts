import type { PermissionRequestInfo } from '@kandev/protocol';
import { flush, started } from '../testing/agent-runner-harness';
import type { AgentPermissionRequest } from './acp-connection';
import type { PermissionAsker } from './permission-responder';

const OPTIONS = [
  { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'always', name: 'Allow always', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

function request(fields: Partial<AgentPermissionRequest> = {}): AgentPermissionRequest {
  return {
    toolCallId: 'tc-1',
    title: 'Write README.md',
    toolKind: 'edit',
    options: OPTIONS,
    toolCall: { kind: 'tool_call', toolCallId: 'tc-1', title: 'Write README.md', toolKind: 'edit' },
    ...fields,
  };
}

/** An asker that holds each request until the test answers it. */
function heldAsker() {
  const asked: { info: PermissionRequestInfo; signal: AbortSignal; answer: (optionId: string | null) => void }[] = [];
  const asker: PermissionAsker = {
    ask: (info, signal) =>
      new Promise((resolve) => {
        asked.push({ info, signal, answer: resolve });
        signal.addEventListener('abort', () => resolve(null), { once: true });
      }),
  };
  return { asker, asked };
}

const never = new AbortController().signal;

describe('AgentRunner permission requests', () => {
  test.each([
    ['allow_all', { outcome: 'selected', optionId: 'allow' }],
    ['deny_all', { outcome: 'selected', optionId: 'reject' }],
    // No asker wired (no Attach hub): ask rejects.
    ['ask', { outcome: 'selected', optionId: 'reject' }],
  ] as const)('policy %s', async (permissionPolicy, expected) => {
    const t = await started({ permissionPolicy });
    await expect(t.conn().events.onPermission('acp-1', request(), never)).resolves.toEqual(expected);
  });

  test.each(['ask', 'deny_all', 'allow_all'] as const)(
    "policy %s: the session's own MCP tool is allowed once, nobody asked",
    async (permissionPolicy) => {
      const { asker, asked } = heldAsker();
      const t = await started({ permissionPolicy }, undefined, { permissions: asker });
      const own = request({
        title: null,
        toolCall: { kind: 'tool_call', toolCallId: 'tc-1', mcpTool: { server: 'kandev', tool: 'get_task_kandev' } },
      });
      await expect(t.conn().events.onPermission('acp-1', own, never)).resolves.toEqual({
        outcome: 'selected',
        optionId: 'allow',
      });
      expect(asked).toEqual([]);
    },
  );

  test('a tool of another MCP server, or one the session does not list, goes by the policy', async () => {
    const { asker, asked } = heldAsker();
    const t = await started({ permissionPolicy: 'ask' }, undefined, { permissions: asker });
    for (const mcpTool of [
      { server: 'other', tool: 'get_task_kandev' },
      { server: 'kandev', tool: 'update_task_mr_automation_kandev' },
    ]) {
      const answer = t
        .conn()
        .events.onPermission('acp-1', request({ toolCall: { kind: 'tool_call', toolCallId: 'tc-1', mcpTool } }), never);
      await flush();
      asked.at(-1)?.answer('reject');
      await expect(answer).resolves.toEqual({ outcome: 'selected', optionId: 'reject' });
    }
    expect(asked).toHaveLength(2);
  });

  test('an MCP call announced earlier in the turn is recognised by its id (the request names no tool)', async () => {
    const { asker, asked } = heldAsker();
    const t = await started({ permissionPolicy: 'ask' }, undefined, { permissions: asker });
    t.runner.prompt('p1', 'go');
    t.conn().update({
      kind: 'tool_call',
      toolCallId: 'tc-1',
      title: 'mcp.kandev.get_task_kandev',
      mcpTool: { server: 'kandev', tool: 'get_task_kandev' },
    });
    const bare = request({ title: null, toolKind: 'execute', toolCall: { kind: 'tool_call', toolCallId: 'tc-1' } });
    await expect(t.conn().events.onPermission('acp-1', bare, never)).resolves.toEqual({
      outcome: 'selected',
      optionId: 'allow',
    });
    expect(asked).toEqual([]);
  });

  test('a call announced only by its permission request is recorded; refused, it ends failed', async () => {
    const { asker, asked } = heldAsker();
    const t = await started({ permissionPolicy: 'ask' }, undefined, { permissions: asker });
    t.runner.prompt('p1', 'go');
    const answer = t.conn().events.onPermission(
      'acp-1',
      request({
        toolCallId: 'sh-1',
        title: 'touch a.txt',
        toolKind: 'execute',
        toolCall: {
          kind: 'tool_call',
          toolCallId: 'sh-1',
          title: 'touch a.txt',
          toolKind: 'execute',
          status: 'pending',
        },
      }),
      never,
    );
    await flush();
    expect(asked.map((a) => a.info.title)).toEqual(['touch a.txt']);
    asked[0]?.answer('reject');
    await expect(answer).resolves.toEqual({ outcome: 'selected', optionId: 'reject' });
    const notices = t.events.filter((e) => e.kind === 'tool_call');
    expect(notices.map((e) => [e.title, e.status, e.toolKind])).toEqual([
      ['touch a.txt', 'pending', 'execute'],
      ['touch a.txt', 'failed', 'execute'],
    ]);
    expect(notices.at(-1)).toMatchObject({ outputText: 'Not run: refused (permission policy ask).' });
  });

  test('a request without a title takes the title its call was announced with', async () => {
    const { asker, asked } = heldAsker();
    const t = await started({ permissionPolicy: 'ask' }, undefined, { permissions: asker });
    t.runner.prompt('p1', 'go');
    t.conn().update({ kind: 'tool_call', toolCallId: 'tc-1', title: 'Edit src/app.ts', toolKind: 'edit' });
    void t
      .conn()
      .events.onPermission(
        'acp-1',
        request({ title: null, toolCall: { kind: 'tool_call', toolCallId: 'tc-1' } }),
        never,
      );
    await flush();
    expect(asked[0]?.info.title).toBe('Edit src/app.ts');
  });

  test('cancelling the turn answers a waiting request cancelled and withdraws the question', async () => {
    const { asker, asked } = heldAsker();
    const t = await started({ permissionPolicy: 'ask' }, undefined, { permissions: asker });
    t.runner.prompt('p1', 'go');
    const answer = t.conn().events.onPermission('acp-1', request(), never);
    await flush();
    t.runner.cancel();
    await expect(answer).resolves.toEqual({ outcome: 'cancelled' });
    expect(asked[0]?.signal.aborted).toBe(true);
  });

  test('a request the agent withdraws is answered cancelled', async () => {
    const { asker, asked } = heldAsker();
    const t = await started({ permissionPolicy: 'ask' }, undefined, { permissions: asker });
    t.runner.prompt('p1', 'go');
    const withdrawn = new AbortController();
    const answer = t.conn().events.onPermission('acp-1', request(), withdrawn.signal);
    await flush();
    withdrawn.abort();
    await expect(answer).resolves.toEqual({ outcome: 'cancelled' });
    expect(asked[0]?.signal.aborted).toBe(true);
  });
});
