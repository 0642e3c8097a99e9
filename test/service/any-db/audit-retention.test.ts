// The audit trail's own retention over a real database: the event log's pruning (a day here) drops the
// events, while the audit entries of those a token or a session made stay until their own cutoff
// (KANDEV_AUDIT_RETENTION_DAYS, thirty days here); events of no actor never enter the trail.
import { createInProcessBackend, EVENT_LOG_DEFAULTS, type NewEvent, readAudit } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';

const DAY = 24 * 3_600_000;
const NOW = new Date('2026-12-05T10:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();
const TOKEN = { kind: 'token', id: 'tok-1', name: 'ci' } as const;

describe('audit retention', () => {
  const cleanup = useCleanup();

  test('entries outlive the event log’s retention and go at their own cutoff', async () => {
    const { backend, db } = await createInProcessBackend(cleanup, {
      clock: () => NOW,
      config: {
        events: { ...EVENT_LOG_DEFAULTS, retention: { maxAgeMs: DAY, maxRows: 1000 }, auditMaxAgeMs: 30 * DAY },
      },
    });
    const event = (marker: string, at: string, actor: NewEvent['actor']): NewEvent => ({
      type: 'workspace.created',
      taskId: null,
      sessionId: null,
      data: { marker },
      at,
      actor,
    });
    await backend.uow.transaction((stores) =>
      stores.events.appendMany([
        event('too old', daysAgo(60), TOKEN),
        event('agent, old', daysAgo(10), { kind: 'session', id: 'session-1' }),
        event('by itself', daysAgo(10), null),
        event('token, old', daysAgo(5), TOKEN),
        event('recent', daysAgo(0), TOKEN),
      ]),
    );
    const markers = (rows: { data: Record<string, unknown> }[]) => rows.map((row) => row.data.marker);
    expect(markers((await readAudit(db, {})).items)).toEqual(['recent', 'token, old', 'agent, old', 'too old']);

    await backend.eventPruner.prune();

    // The log keeps a day; the trail thirty days, newest first, paged as before.
    expect(markers(await backend.uow.read.events.after(0, {}, 100))).toEqual(['recent']);
    const first = await readAudit(db, { limit: 2 });
    const rest = await readAudit(db, { cursor: first.nextCursor! });
    expect([...markers(first.items), ...markers(rest.items)]).toEqual(['recent', 'token, old', 'agent, old']);
    expect(rest.nextCursor).toBeNull();
    expect(first.items[0]).toMatchObject({ type: 'workspace.created', actor: TOKEN, at: daysAgo(0) });
  });
});
