import { agentEnvironment, pickAgentBaseEnv } from './agent-env';

const AGENTCTL_ENV = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/agent',
  LANG: 'C.UTF-8',
  KANDEV_AGENTCTL_TOKEN: 'control-token-0123456789abcdef0123456789',
  KANDEV_AGENTCTL_TOKEN_FILE: '/run/secrets/agentctl',
  AWS_SECRET_ACCESS_KEY: 'not-for-agents',
  NODE_OPTIONS: '--inspect',
  SHELL: undefined,
};

describe('pickAgentBaseEnv', () => {
  test('keeps only the allow-listed variables that are set', () => {
    expect(pickAgentBaseEnv(AGENTCTL_ENV)).toEqual({ PATH: '/usr/bin:/bin', HOME: '/home/agent', LANG: 'C.UTF-8' });
  });
});

describe('agentEnvironment', () => {
  test('base plus profile; the profile wins on a clash', () => {
    const { env, dropped } = agentEnvironment(pickAgentBaseEnv(AGENTCTL_ENV), {
      ANTHROPIC_API_KEY: 'sk-profile',
      LANG: 'de_DE.UTF-8',
    });
    expect(env).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/agent',
      LANG: 'de_DE.UTF-8',
      ANTHROPIC_API_KEY: 'sk-profile',
    });
    expect(dropped).toEqual([]);
  });

  test('no KANDEV_ variable gets through, from the base or the profile (any case); dropped names are reported', () => {
    const { env, dropped } = agentEnvironment(
      { PATH: '/bin', KANDEV_AGENTCTL_TOKEN: 'leaked' },
      { KANDEV_AGENTCTL_TOKEN: 'x', kandev_data_dir: '/d', MY_KANDEV_FLAG: '1' },
    );
    expect(Object.keys(env).filter((name) => name.toUpperCase().startsWith('KANDEV_'))).toEqual([]);
    expect(env).toEqual({ PATH: '/bin', MY_KANDEV_FLAG: '1' });
    expect(dropped).toEqual(['KANDEV_AGENTCTL_TOKEN', 'kandev_data_dir']);
  });
});
