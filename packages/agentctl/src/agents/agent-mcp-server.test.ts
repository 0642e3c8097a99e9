import { agentMcpHost, agentMcpServer } from './agent-mcp-server';

describe('agentMcpHost', () => {
  test.each([
    ['127.0.0.1', '127.0.0.1'],
    ['0.0.0.0', '127.0.0.1'],
    ['localhost', '127.0.0.1'],
    ['::', '127.0.0.1'],
    ['::1', '[::1]'],
    ['10.1.2.3', '10.1.2.3'],
    ['fd00::5', '[fd00::5]'],
  ])('bound to %s: the agent dials %s', (bind, expected) => {
    expect(agentMcpHost(bind)).toBe(expected);
  });
});

describe('agentMcpServer', () => {
  test('loopback URL of the session endpoint, bearer header', () => {
    expect(agentMcpServer('0.0.0.0', 7422, 'session 1', 'tok')).toEqual({
      name: 'kandev',
      url: 'http://127.0.0.1:7422/sessions/session%201/mcp',
      headers: [{ name: 'Authorization', value: 'Bearer tok' }],
    });
  });
});
