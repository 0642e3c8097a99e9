import { inspect } from 'node:util';
import fc from 'fast-check';
import { isSealed, SecretBox, SecretOpenError, sealedKeyId } from './secret-box';
import { decodeSecretKey, SecretKey } from './secret-key';

const keyBytes = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes));
const plaintexts = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ unit: 'binary' }));

function refusal(open: () => string): SecretOpenError['failure'] | 'opened' {
  try {
    open();
    return 'opened';
  } catch (error) {
    if (error instanceof SecretOpenError) return error.failure;
    throw error;
  }
}

describe('SecretBox (AES-256-GCM at rest)', () => {
  test('any string round-trips; a sealed value names its key and never contains the plaintext', () => {
    fc.assert(
      fc.property(keyBytes, plaintexts, (bytes, plaintext) => {
        const box = new SecretBox(new SecretKey(bytes, 'test'));
        const sealed = box.seal(plaintext);
        expect(isSealed(sealed)).toBe(true);
        expect(sealedKeyId(sealed)).toBe(box.key.id);
        expect(sealed.startsWith(`enc:v1:${box.key.id}:`)).toBe(true);
        // Long enough that it cannot turn up in the header or the base64 by chance.
        if (plaintext.length >= 32) expect(sealed).not.toContain(plaintext);
        expect(box.open(sealed)).toBe(plaintext);
        expect(box.reveal(sealed)).toBe(plaintext);
      }),
    );
  });

  test('the same value sealed twice differs (a random IV each time)', () => {
    const box = new SecretBox(SecretKey.generate('test'));
    expect(box.seal('token')).not.toBe(box.seal('token'));
  });

  test('any change to a sealed value is refused, never opened to something else', () => {
    fc.assert(
      fc.property(keyBytes, plaintexts, fc.nat(), fc.nat(), (bytes, plaintext, at, delta) => {
        const box = new SecretBox(new SecretKey(bytes, 'test'));
        const sealed = box.seal(plaintext);
        const index = at % sealed.length;
        const alphabet = 'ABCabc012_-:=';
        const replacement = alphabet[delta % alphabet.length] ?? 'A';
        fc.pre(sealed[index] !== replacement);
        const tampered = `${sealed.slice(0, index)}${replacement}${sealed.slice(index + 1)}`;
        const outcome = refusal(() => box.open(tampered));
        // base64url's last character can carry unused bits; a change there may decode to the same bytes.
        if (outcome === 'opened') expect(box.open(tampered)).toBe(plaintext);
        else expect(['malformed', 'other_key', 'tampered']).toContain(outcome);
      }),
    );
  });

  test('another key is refused by its id, and a forged id by the authentication tag', () => {
    fc.assert(
      fc.property(keyBytes, keyBytes, plaintexts, (a, b, plaintext) => {
        fc.pre(!a.equals(b));
        const mine = new SecretBox(new SecretKey(a, 'KANDEV_SECRET_KEY'));
        const theirs = new SecretBox(new SecretKey(b, 'theirs'));
        const sealed = theirs.seal(plaintext);
        expect(refusal(() => mine.open(sealed))).toBe('other_key');
        const forged = sealed.replace(theirs.key.id, mine.key.id);
        expect(refusal(() => mine.open(forged))).toBe('tampered');
      }),
    );
  });

  test('refusals name the key source, never the value', () => {
    const box = new SecretBox(SecretKey.generate('/etc/kandev/key (KANDEV_SECRET_KEY_FILE)'));
    const other = new SecretBox(SecretKey.generate('x'));
    const error = (() => {
      try {
        box.open(other.seal('glpat-do-not-print'));
      } catch (caught) {
        return caught as Error;
      }
      throw new Error('expected a refusal');
    })();
    expect(error.message).toContain('/etc/kandev/key (KANDEV_SECRET_KEY_FILE)');
    expect(error.message).not.toContain('glpat');
    expect(refusal(() => box.open('plain-token'))).toBe('malformed');
    expect(box.reveal('plain-token')).toBe('plain-token');
  });
});

describe('SecretKey', () => {
  test('64 hex digits or base64 (standard or url-safe) of 32 bytes; nothing else', () => {
    fc.assert(
      fc.property(keyBytes, (bytes) => {
        expect(decodeSecretKey(bytes.toString('hex'))).toEqual(bytes);
        expect(decodeSecretKey(` ${bytes.toString('base64')}\n`)).toEqual(bytes);
        expect(decodeSecretKey(bytes.toString('base64url'))).toEqual(bytes);
      }),
    );
    for (const bad of [
      '',
      'short',
      'a'.repeat(63),
      Buffer.alloc(31).toString('base64'),
      Buffer.alloc(33).toString('hex'),
    ])
      expect(decodeSecretKey(bad)).toBeUndefined();
  });

  test('JSON and inspect show its id and source, never its bytes', () => {
    const key = new SecretKey(Buffer.alloc(32, 7), 'KANDEV_SECRET_KEY');
    const base64 = Buffer.alloc(32, 7).toString('base64');
    for (const shown of [JSON.stringify({ key }), inspect(key), inspect({ key }, { depth: 5 })])
      expect(shown).not.toContain(base64);
    expect(JSON.parse(JSON.stringify(key))).toEqual({ id: key.id, source: 'KANDEV_SECRET_KEY' });
  });
});
