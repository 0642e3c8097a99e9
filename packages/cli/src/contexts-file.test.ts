import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from './config';
import { configPath, loadConfigFile, saveConfigFile } from './contexts-file';
import { CliError } from './errors';

describe('the contexts file', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kandev-cli-contexts-'));
    env = { XDG_CONFIG_HOME: join(dir, 'config') };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('missing is empty; saved is 0600 in a 0700 directory and reads back', () => {
    expect(loadConfigFile(env)).toEqual({ current: null, contexts: {} });
    saveConfigFile({ current: 'a', contexts: { a: { url: 'http://a:1', token_env: 'A_TOKEN' } } }, env);
    expect(statSync(configPath(env)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'config', 'kandev')).mode & 0o777).toBe(0o700);
    expect(loadConfigFile(env).contexts.a).toEqual({ url: 'http://a:1', token_env: 'A_TOKEN' });
  });

  test('a file that is not JSON, or holds a token, is a usage error naming the file', () => {
    saveConfigFile({ current: null, contexts: {} }, env);
    writeFileSync(configPath(env), '{');
    expect(() => loadConfigFile(env)).toThrow(/config\.json is not JSON/);
    writeFileSync(configPath(env), JSON.stringify({ contexts: { a: { url: 'http://a', token: 'raw' } } }));
    expect(() => loadConfigFile(env)).toThrow(CliError);
  });

  test('the current context gives URL and token unless a flag or variable says where to go', () => {
    writeFileSync(join(dir, 'token'), 'from-context-file\n');
    const file = () => ({
      current: 'remote',
      contexts: {
        remote: { url: 'http://remote:7420', token_file: join(dir, 'token') },
        ci: { url: 'http://ci:7420', token_env: 'CI_TOKEN' },
      },
    });
    expect(resolveConfig({}, env, dir, file)).toMatchObject({ url: 'http://remote:7420', token: 'from-context-file' });
    expect(resolveConfig({}, { ...env, KANDEV_URL: 'http://env:1' }, dir, file)).toMatchObject({
      url: 'http://env:1',
      token: undefined,
    });
    expect(resolveConfig({ context: 'ci' }, { ...env, CI_TOKEN: 'ci-secret' }, dir, file)).toMatchObject({
      url: 'http://ci:7420',
      token: 'ci-secret',
      tokenSource: 'context ci ($CI_TOKEN)',
    });
    expect(() => resolveConfig({ context: 'ci' }, env, dir, file)).toThrow(/\$CI_TOKEN, which is not set/);
    expect(() => resolveConfig({ context: 'nope' }, env, dir, file)).toThrow(/no context nope/);
    expect(readFileSync(join(dir, 'token'), 'utf8')).toBe('from-context-file\n');
  });
});
