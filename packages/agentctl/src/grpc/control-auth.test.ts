import { Metadata } from '@grpc/grpc-js';
import { sha256Hex } from '@kandev/protocol';
import { isAuthorizedCall } from './control-auth';

const TOKEN = 'control-token-0123456789abcdef0123456789';
const HASH = sha256Hex(TOKEN);

function metadata(...values: (string | Buffer)[]): Metadata {
  const m = new Metadata();
  for (const value of values) m.add(value instanceof Buffer ? 'authorization-bin' : 'authorization', value);
  return m;
}

describe('isAuthorizedCall', () => {
  test.each<[string, Metadata, boolean]>([
    ['the right bearer', metadata(`Bearer ${TOKEN}`), true],
    ['case-insensitive scheme', metadata(`bearer ${TOKEN}`), true],
    ['no metadata', metadata(), false],
    ['wrong token', metadata('Bearer not-the-token-0123456789abcdef0123456789'), false],
    ['token prefix only', metadata(`Bearer ${TOKEN.slice(0, -1)}`), false],
    ['raw token without scheme', metadata(TOKEN), false],
    ['basic auth', metadata(`Basic ${TOKEN}`), false],
    ['two authorization values', metadata(`Bearer ${TOKEN}`, `Bearer ${TOKEN}`), false],
  ])('%s -> %s', (_name, md, expected) => {
    expect(isAuthorizedCall(md, HASH)).toBe(expected);
  });
});
