import type { AgentctlEndpoint } from '../../runtime/agentctl/executor';
import { type AttachConnection, AttachSupervisor } from './attach-supervisor';

const endpoint = (grpcAddress: string, controlToken = 'token'): AgentctlEndpoint => ({
  grpcAddress,
  mcpBaseUrl: `http://${grpcAddress}`,
  controlToken,
});

function setup() {
  const events: string[] = [];
  const supervisor = new AttachSupervisor((target): AttachConnection => {
    const name = `${target.grpcAddress}/${target.controlToken}`;
    return {
      endpoint: target,
      start: () => events.push(`start ${name}`),
      stop: () => {
        events.push(`stop ${name}`);
        return Promise.resolve();
      },
    };
  });
  return { supervisor, events };
}

describe('AttachSupervisor', () => {
  test('follows the current agentctl: same endpoint keeps the client, a new one replaces it', async () => {
    const { supervisor, events } = setup();
    supervisor.follow(endpoint('a:1'));
    supervisor.follow(endpoint('a:1'));
    supervisor.follow(endpoint('a:2'));
    supervisor.follow(endpoint('a:2', 'rotated'));
    await supervisor.stop();
    expect(events).toEqual([
      'start a:1/token',
      'stop a:1/token',
      'start a:2/token',
      'stop a:2/token',
      'start a:2/rotated',
      'stop a:2/rotated',
    ]);
  });

  test('after stop it attaches to nothing', async () => {
    const { supervisor, events } = setup();
    await supervisor.stop();
    supervisor.follow(endpoint('a:1'));
    expect(events).toEqual([]);
  });
});
