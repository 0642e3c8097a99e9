import { type AttachFollower, AttachPool } from './attach-pool';
import type { AgentctlEndpoint } from './executor';

const endpoint = (grpcAddress: string): AgentctlEndpoint => ({
  grpcAddress,
  mcpBaseUrl: `http://${grpcAddress}`,
  controlToken: 't',
});

function setup() {
  const events: string[] = [];
  let n = 0;
  const pool = new AttachPool((): AttachFollower => {
    const id = ++n;
    return {
      follow: (target) => events.push(`${id} follow ${target.grpcAddress}`),
      stop: () => {
        events.push(`${id} stop`);
        return Promise.resolve();
      },
    };
  });
  return { pool, events };
}

describe('AttachPool', () => {
  test('one stream per agentctl slot; a slot keeps its supervisor across endpoints', async () => {
    const { pool, events } = setup();
    pool.up('local', endpoint('a:1'));
    pool.up('docker:s1', endpoint('a:2'));
    pool.up('local', endpoint('a:3'));
    expect(pool.addresses().sort()).toEqual(['a:2', 'a:3']);
    await pool.stop();
    expect(events).toEqual(['1 follow a:1', '2 follow a:2', '1 follow a:3', '1 stop', '2 stop']);
  });

  test('down stops the slot, unless the slot already moved to another endpoint', () => {
    const { pool, events } = setup();
    pool.up('docker:s1', endpoint('a:1'));
    pool.up('docker:s1', endpoint('a:2'));
    pool.down('docker:s1', endpoint('a:1'));
    expect(pool.addresses()).toEqual(['a:2']);
    pool.down('docker:s1', endpoint('a:2'));
    expect(pool.addresses()).toEqual([]);
    expect(events).toEqual(['1 follow a:1', '1 follow a:2', '1 stop']);
  });

  test('after stop nothing attaches', async () => {
    const { pool, events } = setup();
    await pool.stop();
    pool.up('local', endpoint('a:1'));
    expect(events).toEqual([]);
  });
});
