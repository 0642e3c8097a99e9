import { createLogger } from '../../platform/logger/logger';
import { AgentctlReachability, gatesReadiness, reachOf } from './agentctl-reachability';
import type { AgentctlEndpoint } from './executor';

const ENDPOINT: AgentctlEndpoint = {
  grpcAddress: '127.0.0.1:7421',
  mcpBaseUrl: 'http://127.0.0.1:7422',
  controlToken: 't',
};

/** Probes answer from `answers` (true: SERVING); timers are stepped by the test. */
function setup(answers: boolean[]) {
  const timers: { fire: () => void; delayMs: number; cancelled: boolean }[] = [];
  const probed: string[] = [];
  const reachability = new AgentctlReachability({
    intervalMs: 1_000,
    timeoutMs: 1_000,
    backoff: { baseMs: 250, maxDelayMs: 2_000 },
    logger: createLogger('silent'),
    probe: (endpoint) => {
      probed.push(endpoint.grpcAddress);
      return Promise.resolve(answers.shift() ?? false);
    },
    startTimer: (fire, delayMs) => {
      const timer = { fire, delayMs, cancelled: false };
      timers.push(timer);
      return { cancel: () => (timer.cancelled = true) };
    },
  });
  /** Runs the latest live timer and waits for the probe it starts to schedule the next one. */
  const step = async () => {
    const timer = timers.filter((t) => !t.cancelled).pop();
    if (timer === undefined) throw new Error('no timer pending');
    timer.cancelled = true;
    const before = timers.length;
    timer.fire();
    while (timers.length === before) await Promise.resolve();
  };
  const settle = async (count: number) => {
    while (timers.length < count) await Promise.resolve();
  };
  return { reachability, timers, probed, step, settle };
}

describe('AgentctlReachability', () => {
  test('unknown until the first probe; reachable while it answers, every interval', async () => {
    const { reachability, timers, settle, step } = setup([true, true]);
    expect(reachability.isReachable(ENDPOINT.grpcAddress)).toBe(false);
    reachability.up(ENDPOINT);
    await settle(1);
    expect(reachability.isReachable(ENDPOINT.grpcAddress)).toBe(true);
    await step();
    expect(timers.map((t) => t.delayMs)).toEqual([1_000, 1_000]);
  });

  test('a failing agentctl is probed with doubling, capped backoff; answering again resets it', async () => {
    const { reachability, timers, settle, step } = setup([false, false, false, false, false, true]);
    reachability.up(ENDPOINT);
    await settle(1);
    for (let i = 0; i < 5; i += 1) await step();
    expect(timers.map((t) => t.delayMs)).toEqual([250, 500, 1_000, 2_000, 2_000, 1_000]);
    expect(reachability.isReachable(ENDPOINT.grpcAddress)).toBe(true);
  });

  test('an Attach stream that ends probes at once; one accepted marks it reachable; down forgets it', async () => {
    const { reachability, probed, timers, settle } = setup([true, false]);
    reachability.up(ENDPOINT);
    await settle(1);
    reachability.detached(ENDPOINT);
    await settle(2);
    expect(probed).toHaveLength(2);
    expect(reachability.isReachable(ENDPOINT.grpcAddress)).toBe(false);
    reachability.attached(ENDPOINT);
    expect(reachability.isReachable(ENDPOINT.grpcAddress)).toBe(true);
    reachability.down(ENDPOINT);
    expect(reachability.isReachable(ENDPOINT.grpcAddress)).toBe(false);
    expect(timers.every((t) => t.cancelled)).toBe(true);
  });

  test('reachOf: local and remote need their agentctl up and answering; docker may have none; remote running means answering', () => {
    const backend = (kind: string, endpoints: AgentctlEndpoint[], running = true) => ({
      kind,
      status: () => ({ running }),
      endpoints: () => endpoints,
    });
    const up = () => true;
    const down = () => false;
    expect(reachOf(backend('local', [ENDPOINT]), up)).toEqual({ kind: 'local', running: true, reachable: true });
    expect(reachOf(backend('local', []), up)).toEqual({ kind: 'local', running: true, reachable: false });
    expect(reachOf(backend('remote', [ENDPOINT]), down)).toEqual({ kind: 'remote', running: false, reachable: false });
    expect(reachOf(backend('docker', [], false), down)).toEqual({ kind: 'docker', running: false, reachable: true });
  });

  test.each([
    ['local', true],
    ['remote', true],
    ['docker', false],
    ['kubernetes', false],
  ])('a %s executor decides readiness: %s', (kind, gates) => {
    expect(gatesReadiness(kind)).toBe(gates);
  });
});
