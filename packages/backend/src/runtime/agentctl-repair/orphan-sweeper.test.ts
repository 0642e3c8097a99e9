import type { AgentctlApi, AgentctlConnector } from '../agentctl/agentctl-client';
import type { AgentctlDirectory } from '../agentctl/agentctl-directory';
import { Agentctls } from '../agentctl/agentctls';
import type { AgentctlEndpoint } from '../agentctl/executor';
import { SingleProcess } from '../../platform/cluster/single-process';
import { createLogger } from '../../platform/logger/logger';
import type { AgentSession } from '../sessions/agent-session';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import { OrphanSweeper } from './orphan-sweeper';

const HERE: AgentctlEndpoint = { grpcAddress: 'here:1', mcpBaseUrl: 'http://here:2', controlToken: 't'.repeat(32) };
const OTHER_UP = 'up:1';
const GONE = 'gone:1';

/** This agentctl holds one runtime session per row; `OTHER_UP` is another agentctl up, `GONE` is not. */
function sweeperOver(rows: Partial<AgentSession>[], listed: Promise<void> = Promise.resolve()) {
  const stopped: string[] = [];
  const client = {
    listSessions: () => listed.then(() => rows.map((row) => ({ config: { sessionId: row.id } }))),
    stopSession: (id: string) => {
      stopped.push(id);
      return Promise.resolve(true);
    },
  } as unknown as AgentctlApi;
  const directory = {
    endpoints: () => [HERE],
    ownerOf: (address: string) =>
      [HERE.grpcAddress, OTHER_UP].includes(address) ? { name: 'remote', kind: 'remote' } : undefined,
  } as unknown as AgentctlDirectory;
  const clients: AgentctlConnector = { clientFor: () => client };
  const uow = {
    read: {
      sessions: {
        findByIds: (ids: readonly string[]) =>
          Promise.resolve(new Map(rows.filter((row) => ids.includes(row.id ?? '')).map((row) => [row.id, row]))),
      },
    },
  } as unknown as UnitOfWork;
  const sweeper = new OrphanSweeper({
    uow,
    agentctls: new Agentctls(directory, clients),
    logger: createLogger('silent'),
    followUpDelaysMs: [],
    replicas: new SingleProcess('only'),
  });
  return { sweeper, stopped };
}

describe('OrphanSweeper', () => {
  test('stops what is ended, unknown, or resumed on another agentctl that is up; keeps the rest', async () => {
    const { sweeper, stopped } = sweeperOver([
      { id: 'live-here', state: 'waiting_for_input', agentctlAddress: HERE.grpcAddress },
      { id: 'ended', state: 'failed', agentctlAddress: HERE.grpcAddress },
      { id: 'resumed-elsewhere', state: 'running', agentctlAddress: OTHER_UP },
      // The repair on attach restored it here and has not recorded the new address yet.
      { id: 'moving-here', state: 'waiting_for_input', agentctlAddress: GONE },
    ]);
    expect(await sweeper.sweep()).toEqual(['ended', 'resumed-elsewhere']);
    expect(stopped).toEqual(['ended', 'resumed-elsewhere']);
  });

  test('stop waits for the pass under way; no pass starts after it', async () => {
    let list!: () => void;
    const listed = new Promise<void>((resolve) => (list = resolve));
    const { sweeper, stopped } = sweeperOver(
      [{ id: 'ended', state: 'failed', agentctlAddress: HERE.grpcAddress }],
      listed,
    );
    const pass = sweeper.sweep();
    let stoppedSweeper = false;
    const stopping = sweeper.stop().then(() => (stoppedSweeper = true));
    await Promise.resolve();
    expect(stoppedSweeper).toBe(false);
    list();
    await stopping;
    expect(await pass).toEqual(['ended']);
    expect(await sweeper.sweep()).toEqual([]);
    expect(stopped).toEqual(['ended']);
  });
});
