import { attachedAgentctlOf, attachLeaseName } from './attach-lease';

describe('Attach lease names', () => {
  test.each([
    ['127.0.0.1:7421', { grpcAddress: '127.0.0.1:7421', localTo: null }],
    ['127.0.0.1:7421@replica-a', { grpcAddress: '127.0.0.1:7421', localTo: 'replica-a' }],
    ['[::1]:7421@r', { grpcAddress: '[::1]:7421', localTo: 'r' }],
  ])('%s reads back as its agentctl', (key, expected) => {
    expect(attachLeaseName(key)).toBe(`attach:${key}`);
    expect(attachedAgentctlOf(attachLeaseName(key))).toEqual(expected);
  });
});
