import { AppError } from '@kandev/protocol';
import { decideCreate } from './revision-decision';

const at = (revision: number, fingerprint = 'content-a') => ({ revision, content: () => fingerprint });
/** A config whose content must not be looked at (its fingerprint serialises the whole config). */
const unread = (revision: number) => ({
  revision,
  content: (): string => {
    throw new Error('fingerprint computed');
  },
});

describe('decideCreate', () => {
  test.each([
    ['no session yet', undefined, at(3), 'create'],
    ['same revision, same content: idempotent', at(3), at(3), 'unchanged'],
    ['higher revision: resume replaces the config', at(3), at(4, 'content-b'), 'replace'],
    ['higher revision with equal content still moves forward', at(3), at(9), 'replace'],
    ['no session yet: its content is not read', undefined, unread(3), 'create'],
    ['higher revision: neither content is read', unread(3), unread(4), 'replace'],
  ] as const)('%s', (_name, current, incoming, expected) => {
    expect(decideCreate('s1', current, incoming)).toBe(expected);
  });

  test.each([
    ['same revision, different content', at(3), at(3, 'content-b'), /different content at revision 3/],
    ['lower revision', at(3), at(2), /revision 2 is older/],
    ['lower revision, contents not read', unread(3), unread(2), /revision 2 is older/],
  ] as const)('%s: failed_precondition', (_name, current, incoming, message) => {
    const call = () => decideCreate('s1', current, incoming);
    expect(call).toThrow(AppError);
    expect(call).toThrow(message);
    expect(call).toThrow(expect.objectContaining({ code: 'failed_precondition' }) as Error);
  });
});
