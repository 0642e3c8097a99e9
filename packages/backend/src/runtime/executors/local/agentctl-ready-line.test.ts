import { parseAgentctlReadyLine } from './agentctl-ready-line';

describe('parseAgentctlReadyLine', () => {
  test('the ready line', () => {
    expect(parseAgentctlReadyLine('{"event":"ready","grpcPort":7421,"mcpPort":7422,"pid":42}')).toEqual({
      event: 'ready',
      grpcPort: 7421,
      mcpPort: 7422,
      pid: 42,
    });
  });

  test.each([
    '',
    'agentctl starting',
    '{"event":"ready"}',
    '{"event":"started","grpcPort":1,"mcpPort":2,"pid":3}',
    '{"event":"ready","grpcPort":0,"mcpPort":2,"pid":3}',
    '{"event":"ready","grpcPort":"7421","mcpPort":2,"pid":3}',
    '[1,2]',
  ])('anything else is not ready: %j', (line) => {
    expect(parseAgentctlReadyLine(line)).toBeUndefined();
  });
});
