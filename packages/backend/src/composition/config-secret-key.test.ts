import { ConfigError, loadConfig } from './config';

const HEX = 'ab'.repeat(32);
const BASE64 = Buffer.alloc(32, 9).toString('base64');

function configError(env: Record<string, string>, readText?: (path: string) => string): ConfigError {
  try {
    loadConfig(env, readText);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig: the secret key', () => {
  test('none by default (the data dir keeps its own); from the variable, hex or base64, or from a file', () => {
    expect(loadConfig({}).secretKey).toBeUndefined();
    const fromHex = loadConfig({ KANDEV_SECRET_KEY: HEX }).secretKey;
    expect(fromHex?.bytes()).toEqual(Buffer.from(HEX, 'hex'));
    expect(fromHex?.source).toBe('KANDEV_SECRET_KEY');
    expect(loadConfig({ KANDEV_SECRET_KEY: BASE64 }).secretKey?.bytes()).toEqual(Buffer.alloc(32, 9));
    const fromFile = loadConfig({ KANDEV_SECRET_KEY_FILE: '/run/secrets/key' }, () => `${BASE64}\n`).secretKey;
    expect(fromFile?.bytes()).toEqual(Buffer.alloc(32, 9));
    expect(fromFile?.source).toBe('/run/secrets/key (KANDEV_SECRET_KEY_FILE)');
  });

  test('a bad key, an unreadable file or both variables: a config error naming variables, never the value', () => {
    for (const bad of ['short', 'zz'.repeat(32), Buffer.alloc(16).toString('base64')]) {
      const error = configError({ KANDEV_SECRET_KEY: bad });
      expect(error.variables).toEqual(['KANDEV_SECRET_KEY']);
      expect(error.message).not.toContain(bad);
    }
    expect(configError({ KANDEV_SECRET_KEY: HEX, KANDEV_SECRET_KEY_FILE: '/k' }).variables).toEqual([
      'KANDEV_SECRET_KEY',
      'KANDEV_SECRET_KEY_FILE',
    ]);
    const unreadable = () => {
      throw new Error('ENOENT');
    };
    expect(configError({ KANDEV_SECRET_KEY_FILE: '/no/such' }, unreadable).variables).toEqual([
      'KANDEV_SECRET_KEY_FILE',
    ]);
    expect(configError({ KANDEV_SECRET_KEY_FILE: '/k' }, () => 'not a key').variables).toEqual([
      'KANDEV_SECRET_KEY_FILE',
    ]);
  });

  test('the loaded config never shows the key bytes', () => {
    const config = loadConfig({ KANDEV_SECRET_KEY: HEX });
    expect(JSON.stringify(config)).not.toContain(HEX);
    expect(JSON.stringify(config)).not.toContain(Buffer.from(HEX, 'hex').toString('base64'));
  });
});
