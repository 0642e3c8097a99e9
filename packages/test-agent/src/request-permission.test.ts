import type { RequestPermissionRequest, SessionUpdate } from '@agentclientprotocol/sdk';
import { parseScript } from './script';
import { createSessionMemory, runTurn, TurnFailure, type TurnIo } from './turn-runner';

type Asked = Omit<RequestPermissionRequest, 'sessionId'>;

function io(answer: (request: Asked) => Promise<string>, withPermission = true) {
  const updates: SessionUpdate[] = [];
  const asked: Asked[] = [];
  const value: TurnIo = {
    update: (update) => {
      updates.push(update);
      return Promise.resolve();
    },
    callTool: () => Promise.reject(new Error('no tools')),
    listTools: () => Promise.resolve([]),
    knownTools: () => [],
    waitForFile: () => Promise.resolve(),
    cancelled: new Promise<void>(() => undefined),
    isCancelled: () => false,
    exit: () => {
      throw new Error('exit');
    },
    nextToolCallId: () => 'call-1',
    ...(withPermission
      ? {
          requestPermission: (request: Asked) => {
            asked.push(request);
            return answer(request);
          },
        }
      : {}),
  };
  return { value, updates, asked };
}

const script = (step: unknown) =>
  parseScript(JSON.stringify({ turns: [{ steps: [step, { reply: 'got {{var:permission}}' }] }] }));

describe('request_permission step', () => {
  test('defaults: three options; the outcome is stored and a later reply shows it', async () => {
    const parsed = script({ request_permission: { title: 'Write {{prompt}}', kind: 'edit' } });
    const t = io(() => Promise.resolve('allow-always'));
    const memory = createSessionMemory();
    await expect(
      runTurn(
        parsed.turns[0]!,
        { prompt: 'README.md', ordinal: 0, systemPrompt: '', mode: 'default', memory },
        t.value,
      ),
    ).resolves.toBe('end_turn');
    expect(t.asked).toEqual([
      {
        toolCall: { toolCallId: 'call-1', title: 'Write README.md', kind: 'edit', status: 'pending' },
        options: [
          { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
          { optionId: 'allow-always', name: 'Allow always', kind: 'allow_always' },
          { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
        ],
      },
    ]);
    expect(t.updates[0]).toMatchObject({ sessionUpdate: 'tool_call', toolCallId: 'call-1', status: 'pending' });
    expect(t.updates.at(-1)).toMatchObject({ content: { text: 'got allow-always' } });
    expect(memory.vars.get('permission')).toBe('allow-always');
  });

  test('a client that cannot be asked fails the turn', async () => {
    const parsed = script({ request_permission: { title: 'x' } });
    const t = io(() => Promise.resolve('x'), false);
    await expect(
      runTurn(
        parsed.turns[0]!,
        { prompt: '', ordinal: 0, systemPrompt: '', mode: 'default', memory: createSessionMemory() },
        t.value,
      ),
    ).rejects.toBeInstanceOf(TurnFailure);
  });

  test.each([
    [{ request_permission: {} }, /title/],
    [{ request_permission: { title: 'x', kind: 'nuke' } }, /kind/],
    [{ request_permission: { title: 'x', options: [{ option_id: 'a', name: 'A', kind: 'maybe' }] } }, /kind/],
    [{ request_permission: { title: 'x', var: '1bad' } }, /var/],
  ])('script errors at load time: %j', (step, message) => {
    expect(() => script(step)).toThrow(message);
  });

  test('in mode auto the agent acts without asking: no request, outcome auto, the call reported done', async () => {
    const parsed = script({ request_permission: { title: 'Write x', kind: 'edit' } });
    const t = io(() => Promise.resolve('allow-once'));
    const memory = createSessionMemory();
    await runTurn(parsed.turns[0]!, { prompt: '', ordinal: 0, systemPrompt: '', mode: 'auto', memory }, t.value);
    expect(t.asked).toEqual([]);
    expect(memory.vars.get('permission')).toBe('auto');
    expect(t.updates[0]).toMatchObject({ sessionUpdate: 'tool_call', title: 'Write x', status: 'completed' });
  });
});
