// Two backend replicas over ONE database (PostgreSQL in the service-pg project; on SQLite shared leases
// are forced) and one agentctl (the fake, which keeps agentctl's per-id ledger): prompts queued on either
// replica, concurrently, are each delivered exactly once and in order, whichever replica's drain claims
// them; a prompt queued on the replica that does not get the session's events still drains once the turn
// before it ends.
import { useCleanup } from '../helpers/cleanup';
import { createTurnHarness, finishWhenRunning } from '../helpers/turn-harness';
import { waitUntil } from '../helpers/wait';

const cleanup = useCleanup();
const REPLICAS = { ttlMs: 60_000, renewMs: 5, shared: true };

async function twoReplicas() {
  const a = await createTurnHarness(cleanup, { replica: { replicas: REPLICAS } });
  const b = await createTurnHarness(cleanup, {
    agentctl: a.agentctl,
    replica: { db: a.db, replicas: REPLICAS },
  });
  a.attach(); // the session's events reach replica a (the Attach owner); b only queues and drains
  return { a, b };
}

describe('several replicas: the prompt queue', () => {
  it('delivers every prompt once, in order, with both replicas queueing and kicking at once', async () => {
    const { a, b } = await twoReplicas();
    const sessionId = await a.readySession();
    const ids: string[] = [];
    for (let round = 0; round < 5; round += 1) {
      // Two prompts at once, one through each replica; then every turn they start ends.
      const queued = await Promise.all([a.prompt(sessionId, `a${round}`), b.prompt(sessionId, `b${round}`)]);
      ids.push(...queued);
      // Their order in the queue is whichever committed first: end each turn as it runs.
      const left = new Set(queued);
      while (left.size > 0) {
        const running = await waitUntil(
          () => {
            const id = a.agentctl.agents.get(sessionId)?.currentPromptId;
            return id !== undefined && id !== null && left.has(id) ? id : undefined;
          },
          { timeoutMs: 5_000, what: 'a queued prompt to run' },
        );
        left.delete(running);
        a.agentctl.finishTurn(sessionId);
      }
    }
    const all = await a.untilDrained(sessionId);
    expect(all.map((p) => p.status)).toEqual(ids.map(() => 'completed'));
    const delivered = a.agentctl.delivered.filter((d) => d.sessionId === sessionId).map((d) => d.promptId);
    expect(delivered).toEqual(all.map((p) => p.id)); // once each, in queue order
    expect(new Set(delivered).size).toBe(ids.length);
    expect(a.agentctl.promptCalls.filter((c) => c.outcome === 'duplicate')).toEqual([]);
  });

  it('a prompt queued on the replica without the events drains after the turn before it', async () => {
    const { a, b } = await twoReplicas();
    const sessionId = await a.readySession();
    const first = await a.prompt(sessionId, 'first');
    await a.untilRunning(sessionId, first);
    const second = await b.prompt(sessionId, 'second'); // b's kick finds the session running
    a.agentctl.finishTurn(sessionId);
    await finishWhenRunning(a, sessionId, second); // a's turn_ended kick claims it
    const all = await a.untilDrained(sessionId);
    expect(all.map((p) => [p.id, p.status])).toEqual([
      [first, 'completed'],
      [second, 'completed'],
    ]);
  });
});
