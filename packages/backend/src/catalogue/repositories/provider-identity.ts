import { isAbsolute, resolve, basename } from 'node:path';
import { AppError, normalizeProvider, type Provider } from '@kandev/protocol';

// Pure: repository identity and provider, derived once at registration and stored on the row.

export const SOURCE_TYPES = ['remote', 'local'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** Where a remote lives: host lowercased, no port, no credentials; owner may be nested (`group/sub`). */
export interface RemoteLocation {
  host: string;
  owner: string;
  name: string;
  /** The URL as given, minus any password or token. */
  sanitizedUrl: string;
}

export interface RepositoryIdentity {
  sourceType: SourceType;
  provider: Provider | null;
  providerHost: string | null;
  owner: string | null;
  name: string;
  remoteUrl: string | null;
  localPath: string | null;
  identityKey: string;
}

export type RepositorySource =
  { remoteUrl: string; localPath?: undefined } | { localPath: string; remoteUrl?: undefined };

const SCHEMES = new Set(['https:', 'http:', 'ssh:', 'git:', 'git+ssh:', 'ssh+git:']);
const SCHEME_URL = /^[a-z][a-z0-9+.-]*:\/\//i;
const SCP_LIKE = /^(?:([^@\s/:]+)@)?([^@\s/:]+):(?!\/\/)(.+)$/;
const HOST = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*|\[[0-9a-f:.]+\])$/;
const SEGMENT = /^[^\s/\\]+$/;

function invalidRemote(url: string, why: string): AppError {
  return new AppError('invalid_argument', `remote_url is not a supported git URL (${why})`, { remote_url: url });
}

/** `owner/sub/name(.git)(/)` -> owner 'owner/sub', name 'name'. */
function splitRepoPath(url: string, path: string): { owner: string; name: string } {
  const segments = path.replace(/^\/+/, '').replace(/\/+$/, '').split('/');
  if (segments.length < 2) throw invalidRemote(url, 'expected <owner>/<name> after the host');
  if (!segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..')) throw invalidRemote(url, 'bad path segment');
  const name = (segments.pop() ?? '').replace(/\.git$/i, '');
  if (name.length === 0) throw invalidRemote(url, 'empty repository name');
  return { owner: segments.join('/'), name };
}

function checkedHost(url: string, host: string): string {
  const lowered = host.toLowerCase();
  if (!HOST.test(lowered)) throw invalidRemote(url, 'bad host');
  return lowered;
}

function parseSchemeUrl(url: string): RemoteLocation {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidRemote(url, 'unparseable URL');
  }
  if (!SCHEMES.has(parsed.protocol)) throw invalidRemote(url, `scheme ${parsed.protocol} is not supported`);
  const host = checkedHost(url, parsed.hostname);
  const { owner, name } = splitRepoPath(url, parsed.pathname);
  const isHttp = parsed.protocol === 'https:' || parsed.protocol === 'http:';
  const user = !isHttp && parsed.username !== '' ? `${parsed.username}@` : '';
  const port = parsed.port === '' ? '' : `:${parsed.port}`;
  return { host, owner, name, sanitizedUrl: `${parsed.protocol}//${user}${host}${port}${parsed.pathname}` };
}

/** Parses https, ssh://, git:// and scp-like (`git@host:owner/name.git`) remote URLs. */
export function parseRemoteUrl(input: string): RemoteLocation {
  const url = input.trim();
  if (url.length === 0) throw invalidRemote(input, 'empty');
  if (SCHEME_URL.test(url)) return parseSchemeUrl(url);
  const scp = SCP_LIKE.exec(url);
  if (scp === null) throw invalidRemote(url, 'expected https://host/owner/name or git@host:owner/name');
  const [, user, rawHost = '', path = ''] = scp;
  const host = checkedHost(url, rawHost);
  const { owner, name } = splitRepoPath(url, path);
  return { host, owner, name, sanitizedUrl: `${user === undefined ? '' : `${user}@`}${host}:${path}` };
}

/** github.com -> github; gitlab.com and configured self-managed hosts -> gitlab; anything else -> null. */
export function providerForHost(host: string, gitlabHosts: readonly string[]): Provider | null {
  const lowered = host.toLowerCase();
  if (lowered === 'github.com') return 'github';
  if (lowered === 'gitlab.com' || gitlabHosts.includes(lowered)) return 'gitlab';
  return null;
}

/**
 * An explicit provider wins when it is a known value; a blank one is ignored (the derived value
 * stands); an unknown one ('bitbucket', 'svn') means no provider: fail closed, never guessed.
 */
export function resolveProvider(explicit: string | null | undefined, derived: Provider | null): Provider | null {
  if (explicit === undefined || explicit === null || explicit.trim() === '') return derived;
  return normalizeProvider(explicit);
}

export function remoteIdentityKey(location: Pick<RemoteLocation, 'host' | 'owner' | 'name'>): string {
  return `${location.host}/${location.owner}/${location.name}`.toLowerCase();
}

function localIdentity(localPath: string, displayName: string | undefined): RepositoryIdentity {
  if (!isAbsolute(localPath)) {
    throw new AppError('invalid_argument', 'local_path must be an absolute path', { local_path: localPath });
  }
  const resolved = resolve(localPath);
  const name = displayName ?? basename(resolved);
  if (name.length === 0) throw new AppError('invalid_argument', 'local_path must name a directory below /');
  return {
    sourceType: 'local',
    provider: null,
    providerHost: null,
    owner: null,
    name,
    remoteUrl: null,
    localPath: resolved,
    identityKey: resolved,
  };
}

/** Everything stored about a repository's identity, from what the caller registered. */
export function deriveRepositoryIdentity(
  source: RepositorySource & { provider?: string | null; name?: string },
  gitlabHosts: readonly string[],
): RepositoryIdentity {
  if (source.localPath !== undefined) {
    const local = localIdentity(source.localPath, source.name);
    return { ...local, provider: resolveProvider(source.provider, null) };
  }
  const location = parseRemoteUrl(source.remoteUrl);
  return {
    sourceType: 'remote',
    provider: resolveProvider(source.provider, providerForHost(location.host, gitlabHosts)),
    providerHost: location.host,
    owner: location.owner,
    name: source.name ?? location.name,
    remoteUrl: location.sanitizedUrl,
    localPath: null,
    identityKey: remoteIdentityKey(location),
  };
}
