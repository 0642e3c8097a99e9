import type { PermissionRequestInfo, WireBackendMessageOutput } from '@kandev/protocol';
import { FakeLink, hello } from '../testing/fake-backend-link';
import { silentLogger } from '../testing/silent-logger';
import { AttachHub } from './attach-hub';

const TIMEOUT_MS = 60_000;

const request = (requestId = 'r-1'): PermissionRequestInfo => ({
  requestId,
  sessionId: 's-1',
  taskId: 't-1',
  toolCallId: 'tc-1',
  title: 'Write README.md',
  toolKind: 'edit',
  options: [
    { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ],
});

const decision = (requestId: string, optionId: string): WireBackendMessageOutput => ({
  kind: 'permission_decision',
  permission_decision: { request_id: requestId, option_id: optionId },
});

function setup() {
  const hub = new AttachHub({ timeoutMs: 30_000, permissionTimeoutMs: TIMEOUT_MS, log: silentLogger });
  const attach = (id: string) => {
    const link = new FakeLink(id);
    hub.opened(link);
    hub.receive(link, hello());
    return link;
  };
  return { hub, attach };
}

describe('AttachHub permission requests', () => {
  afterEach(() => jest.useRealTimers());

  test('without a backend: null at once, nothing sent', async () => {
    const { hub } = setup();
    await expect(hub.ask(request(), new AbortController().signal)).resolves.toBeNull();
  });

  test('forwarded with the request, answered by the decision on the same stream', async () => {
    const { hub, attach } = setup();
    const link = attach('l1');
    const answer = hub.ask(request(), new AbortController().signal);
    expect(link.sent.at(-1)?.permission_request).toMatchObject({
      request_id: 'r-1',
      session_id: 's-1',
      tool_call_id: 'tc-1',
      kind: 'edit',
      options: [
        { option_id: 'allow', name: 'Allow once', kind: 'allow_once' },
        { option_id: 'reject', name: 'Reject', kind: 'reject_once' },
      ],
    });
    hub.receive(link, decision('r-1', 'allow'));
    await expect(answer).resolves.toBe('allow');
  });

  test.each(['', 'cancelled'])('option id %j rejects (null)', async (optionId) => {
    const { hub, attach } = setup();
    const link = attach('l1');
    const answer = hub.ask(request(), new AbortController().signal);
    hub.receive(link, decision('r-1', optionId));
    await expect(answer).resolves.toBeNull();
  });

  test('the stream dropping rejects; a late decision on it changes nothing', async () => {
    const { hub, attach } = setup();
    const link = attach('l1');
    const answer = hub.ask(request(), new AbortController().signal);
    hub.closed(link, 'dropped');
    await expect(answer).resolves.toBeNull();
  });

  test('a newer Attach replacing the stream rejects what the old one carried', async () => {
    const { hub, attach } = setup();
    attach('l1');
    const answer = hub.ask(request(), new AbortController().signal);
    const newer = attach('l2');
    await expect(answer).resolves.toBeNull();
    hub.receive(newer, decision('r-1', 'allow'));
  });

  test('the session stopping (abort) rejects', async () => {
    const { hub, attach } = setup();
    attach('l1');
    const stop = new AbortController();
    const answer = hub.ask(request(), stop.signal);
    stop.abort();
    await expect(answer).resolves.toBeNull();
  });

  test("agentctl's safety timeout rejects", async () => {
    jest.useFakeTimers();
    const { hub, attach } = setup();
    attach('l1');
    const answer = hub.ask(request(), new AbortController().signal);
    jest.advanceTimersByTime(TIMEOUT_MS);
    await expect(answer).resolves.toBeNull();
  });

  test('a decision before hello ends the stream (protocol violation)', () => {
    const { hub } = setup();
    const link = new FakeLink('l1');
    hub.opened(link);
    hub.receive(link, decision('r-1', 'allow'));
    expect(link.ended?.code).toBe('invalid_argument');
  });
});
