import fc from 'fast-check';
import { AppError, PROVIDERS } from '@kandev/protocol';
import {
  deriveRepositoryIdentity,
  parseRemoteUrl,
  providerForHost,
  remoteIdentityKey,
  resolveProvider,
} from './provider-identity';

const GITLAB_HOSTS = ['git.example.org'];

// Letters first: an all-numeric last label would be read as an IPv4 address by the URL parser.
const label = fc.stringMatching(/^[a-z]([a-z0-9-]{0,8}[a-z0-9])?$/).filter((s) => !s.startsWith('xn--'));
const hostArb = fc.oneof(
  fc.constantFrom('github.com', 'gitlab.com', 'bitbucket.org', 'git.example.org'),
  fc.array(label, { minLength: 2, maxLength: 3 }).map((labels) => labels.join('.')),
);
const segmentArb = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,11}$/).filter((s) => !/\.git$/i.test(s));
const locationArb = fc.record({
  host: hostArb,
  owner: fc.array(segmentArb, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/')),
  name: segmentArb,
});
const upperSome = (s: string) =>
  fc
    .array(fc.boolean(), { minLength: s.length, maxLength: s.length })
    .map((flags) => [...s].map((ch, i) => (flags[i] ? ch.toUpperCase() : ch)).join(''));

type Location = { host: string; owner: string; name: string };
const urlForms = (l: Location, host: string, git: string) => [
  `https://${host}/${l.owner}/${l.name}${git}`,
  `https://user:secret@${host}:8443/${l.owner}/${l.name}${git}/`,
  `http://${host}/${l.owner}/${l.name}${git}`,
  `ssh://git@${host}/${l.owner}/${l.name}${git}`,
  `ssh://git@${host}:2222/${l.owner}/${l.name}${git}`,
  `git@${host}:${l.owner}/${l.name}${git}`,
  `${host}:${l.owner}/${l.name}${git}`,
];

describe('parseRemoteUrl', () => {
  test.each([
    ['https://github.com/acme/api.git', 'github.com', 'acme', 'api'],
    ['https://GitHub.com:443/Acme/Api', 'github.com', 'Acme', 'Api'],
    ['ssh://git@gitlab.com/group/sub/web.git', 'gitlab.com', 'group/sub', 'web'],
    ['git@gitlab.com:group/sub/deep/web.git', 'gitlab.com', 'group/sub/deep', 'web'],
    ['https://token@bitbucket.org/acme/lib.git/', 'bitbucket.org', 'acme', 'lib'],
  ])('%s', (url, host, owner, name) => {
    expect(parseRemoteUrl(url)).toMatchObject({ host, owner, name });
  });

  test.each([
    '',
    '   ',
    'not a url',
    'https://github.com',
    'https://github.com/acme',
    'ftp://github.com/a/b',
    '/srv/x',
  ])('rejects %j', (url) => {
    expect(() => parseRemoteUrl(url)).toThrow(AppError);
  });

  test('credentials never survive in the stored URL', () => {
    expect(parseRemoteUrl('https://x-access-token:ghp_secret@github.com/acme/api.git').sanitizedUrl).toBe(
      'https://github.com/acme/api.git',
    );
  });

  test('every URL form of one repository yields the same identity (host lowercased, port/.git/credentials dropped)', () => {
    fc.assert(
      fc.property(locationArb, fc.boolean(), (l, withGit) => {
        const expected = { host: l.host, owner: l.owner, name: l.name };
        const git = withGit ? '.git' : '';
        for (const url of urlForms(l, l.host, git)) expect(parseRemoteUrl(url)).toMatchObject(expected);
      }),
    );
  });

  test('host case never changes the identity key', () => {
    fc.assert(
      fc.property(
        locationArb.chain((l) => upperSome(l.host).map((host) => ({ l, host }))),
        ({ l, host }) => {
          const keys = urlForms(l, host, '.git').map((url) => remoteIdentityKey(parseRemoteUrl(url)));
          expect(new Set(keys)).toEqual(new Set([remoteIdentityKey(l)]));
          expect(keys[0]).toBe(keys[0]?.toLowerCase());
        },
      ),
    );
  });
});

describe('providerForHost', () => {
  test.each([
    ['github.com', 'github'],
    ['GITHUB.COM', 'github'],
    ['gitlab.com', 'gitlab'],
    ['git.example.org', 'gitlab'],
    ['bitbucket.org', null],
    ['github.example.com', null],
    ['example.org', null],
  ])('%s -> %j', (host, provider) => {
    expect(providerForHost(host, GITLAB_HOSTS)).toBe(provider);
  });

  test('only github.com, gitlab.com and configured hosts have a provider', () => {
    fc.assert(
      fc.property(hostArb, fc.array(hostArb, { maxLength: 3 }), (host, gitlabHosts) => {
        const provider = providerForHost(host, gitlabHosts);
        if (host === 'github.com') expect(provider).toBe('github');
        else if (host === 'gitlab.com' || gitlabHosts.includes(host)) expect(provider).toBe('gitlab');
        else expect(provider).toBeNull();
      }),
    );
  });
});

describe('resolveProvider', () => {
  test.each([
    [' GitLab ', null, 'gitlab'],
    ['github', 'gitlab', 'github'],
    ['', 'github', 'github'],
    ['   ', null, null],
    [undefined, 'gitlab', 'gitlab'],
    [null, 'github', 'github'],
    ['svn', 'github', null],
    ['bitbucket', null, null],
  ] as const)('explicit %j, derived %j -> %j', (explicit, derived, expected) => {
    expect(resolveProvider(explicit, derived)).toBe(expected);
  });

  test('an explicit value is never guessed: the result is allowlisted, or derived only when explicit is blank', () => {
    const derivedArb = fc.constantFrom(...PROVIDERS, null);
    fc.assert(
      fc.property(fc.string(), derivedArb, (explicit, derived) => {
        const result = resolveProvider(explicit, derived);
        if (explicit.trim() === '') expect(result).toBe(derived);
        else expect(result).toBe(PROVIDERS.find((p) => p === explicit.trim().toLowerCase()) ?? null);
      }),
    );
  });
});

describe('deriveRepositoryIdentity', () => {
  test('remote: provider from the host, lowercased identity key', () => {
    expect(deriveRepositoryIdentity({ remoteUrl: 'git@GitLab.com:Group/Sub/Web.git' }, [])).toEqual({
      sourceType: 'remote',
      provider: 'gitlab',
      providerHost: 'gitlab.com',
      owner: 'Group/Sub',
      name: 'Web',
      remoteUrl: 'git@gitlab.com:Group/Sub/Web.git',
      localPath: null,
      identityKey: 'gitlab.com/group/sub/web',
    });
  });

  test('local: no provider unless explicit, resolved absolute path as key', () => {
    expect(deriveRepositoryIdentity({ localPath: '/srv/checkouts/../tool/' }, [])).toMatchObject({
      sourceType: 'local',
      provider: null,
      name: 'tool',
      localPath: '/srv/tool',
      identityKey: '/srv/tool',
    });
    expect(deriveRepositoryIdentity({ localPath: '/srv/tool', provider: 'GitHub' }, []).provider).toBe('github');
    expect(() => deriveRepositoryIdentity({ localPath: 'relative/dir' }, [])).toThrow(AppError);
  });

  test('explicit name changes the display name, never the identity key', () => {
    const plain = deriveRepositoryIdentity({ remoteUrl: 'https://github.com/acme/api' }, []);
    const named = deriveRepositoryIdentity({ remoteUrl: 'https://github.com/acme/api', name: 'API' }, []);
    expect(named.name).toBe('API');
    expect(named.identityKey).toBe(plain.identityKey);
  });
});
