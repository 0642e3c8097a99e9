import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { colourAllowed, DEFAULT_URL, resolveConfig } from './config';
import { CliError } from './errors';

describe('resolveConfig', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kandev-cli-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('flags win over env, env over files; the URL loses a trailing slash', () => {
    writeFileSync(join(dir, 'token-file'), 'from-file\n');
    const env = {
      KANDEV_URL: 'http://env:1/',
      KANDEV_API_TOKEN: 'from-env',
      KANDEV_API_TOKEN_FILE: join(dir, 'token-file'),
    };
    expect(resolveConfig({ url: 'http://flag:2', token: 'from-flag' }, env, dir)).toMatchObject({
      url: 'http://flag:2',
      token: 'from-flag',
    });
    expect(resolveConfig({}, env, dir)).toMatchObject({ url: 'http://env:1', token: 'from-env' });
    expect(resolveConfig({}, { KANDEV_API_TOKEN_FILE: join(dir, 'token-file') }, dir).token).toBe('from-file');
  });

  test('KANDEV_DATA_DIR/api-token, else the nearest data/api-token above the working directory', () => {
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'data', 'api-token'), 'walked\n');
    const deep = join(dir, 'a', 'b');
    mkdirSync(deep, { recursive: true });
    expect(resolveConfig({}, {}, deep)).toMatchObject({ url: DEFAULT_URL, token: 'walked' });
    mkdirSync(join(dir, 'other'));
    writeFileSync(join(dir, 'other', 'api-token'), 'named\n');
    expect(resolveConfig({}, { KANDEV_DATA_DIR: 'other' }, dir).token).toBe('named');
  });

  test('a named token file that cannot be read, or a bad URL, is a usage error', () => {
    const read = () => resolveConfig({}, { KANDEV_API_TOKEN_FILE: join(dir, 'missing') }, dir);
    expect(read).toThrow(CliError);
    expect(() => resolveConfig({ url: 'ftp://x' }, {}, dir)).toThrow(/http/);
  });

  test('NO_COLOR (non-empty) and TERM=dumb turn colour off', () => {
    expect(colourAllowed({})).toBe(true);
    expect(colourAllowed({ NO_COLOR: '1' })).toBe(false);
    expect(colourAllowed({ NO_COLOR: '' })).toBe(true);
    expect(colourAllowed({ TERM: 'dumb' })).toBe(false);
  });
});
