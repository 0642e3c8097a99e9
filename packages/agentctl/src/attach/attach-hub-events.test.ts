import pino from 'pino';
import type { SessionEventBody } from '@kandev/protocol';
import { FakeLink, hello } from '../testing/fake-backend-link';
import { silentLogger } from '../testing/silent-logger';
import { AttachHub } from './attach-hub';

const NOW = new Date(Date.UTC(2026, 11, 1, 12, 0, 0));
const started = (promptId: string): SessionEventBody => ({ kind: 'turn_started', promptId });

function setup(outboxCapacity = 100, log = silentLogger) {
  const hub = new AttachHub({
    permissionTimeoutMs: 60_000,
    timeoutMs: 1_000,
    log,
    agentctlId: 'agentctl-1',
    outboxCapacity,
    now: () => NOW,
  });
  const attach = (id: string, backendId = 'backend-a') => {
    const link = new FakeLink(id);
    hub.opened(link);
    hub.receive(link, hello(backendId));
    return link;
  };
  return { hub, attach };
}

/** What a link received, in order: 'accepted' or `<seq>:<prompt id>` for each session event. */
function received(link: FakeLink): string[] {
  return link.sent.map((m) => {
    if (m.accepted) return 'accepted';
    const e = m.session_event;
    return e ? `${String(e.seq)}:${e.turn_started?.prompt_id ?? e.session_id}` : 'other';
  });
}

describe('AttachHub.publish', () => {
  test('attached: each event goes out at once, numbered, stamped and mapped to the wire', () => {
    const { hub, attach } = setup();
    const link = attach('l1');
    hub.publish('s-1', started('p1'));
    hub.publish('s-2', {
      kind: 'agent_exited',
      exitCode: null,
      signal: 'SIGKILL',
      reason: 'killed by SIGKILL',
      expected: false,
    });
    expect(link.sent[1]).toEqual({
      session_event: { session_id: 's-1', seq: '1', occurred_at: NOW.toISOString(), turn_started: { prompt_id: 'p1' } },
    });
    expect(link.sent[2]?.session_event).toMatchObject({
      session_id: 's-2',
      seq: '2',
      agent_exited: { exit_code: -1, signal: 'SIGKILL', reason: 'killed by SIGKILL', expected: false },
    });
    expect(hub.queuedEvents).toBe(0);
  });

  test('no backend: events wait and go, in order, right after the next accepted', () => {
    const { hub, attach } = setup();
    hub.publish('s-1', started('p1'));
    hub.publish('s-1', started('p2'));
    expect(hub.queuedEvents).toBe(2);
    const link = attach('l1');
    hub.publish('s-1', started('p3'));
    expect(received(link)).toEqual(['accepted', '1:p1', '2:p2', '3:p3']);
    expect(hub.queuedEvents).toBe(0);
  });

  test('a stream that opened but has not said hello gets nothing', () => {
    const { hub } = setup();
    const link = new FakeLink('quiet');
    hub.opened(link);
    hub.publish('s-1', started('p1'));
    expect(link.sent).toEqual([]);
    expect(hub.queuedEvents).toBe(1);
  });

  test('after a detach, events queue again for the next backend (seq keeps increasing)', () => {
    const { hub, attach } = setup();
    const first = attach('l1');
    hub.publish('s-1', started('p1'));
    hub.closed(first, 'gone');
    hub.publish('s-1', started('p2'));
    const second = attach('l2', 'backend-b');
    expect(received(first)).toEqual(['accepted', '1:p1']);
    expect(received(second)).toEqual(['accepted', '2:p2']);
  });

  test('a failed write keeps the event for the next backend and detaches the broken stream', () => {
    const { hub, attach } = setup();
    const broken = attach('l1');
    broken.broken = true;
    hub.publish('s-1', started('p1'));
    expect(hub.attached).toBe(false);
    const next = attach('l2');
    expect(received(next)).toEqual(['accepted', '1:p1']);
  });

  test('full outbox: the oldest events are dropped, with one warning per burst', () => {
    const warnings: unknown[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line)) });
    const { hub, attach } = setup(3, log);
    for (const id of ['p1', 'p2', 'p3', 'p4', 'p5']) hub.publish('s-1', started(id));
    expect(warnings).toHaveLength(1);
    expect(received(attach('l1'))).toEqual(['accepted', '3:p3', '4:p4', '5:p5']);
  });
});
