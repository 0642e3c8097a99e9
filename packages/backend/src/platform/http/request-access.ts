// Pure rules for who may talk to the REST API: the Host a request names, the Origin a browser sends and
// the media type of a body. Together they stop DNS rebinding (a foreign name resolving to us) and simple
// cross-site requests (forms, `text/plain` fetches) from changing anything. See docs/security.md.

import type { RestErrorCode } from './error-codes';

/** Names always accepted in the Host header (any port). */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** Bind addresses that mean "every interface": nobody reaches the backend by these names. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '[::]']);

/** Answered for any Host and Origin: probes (docker, kubelet) dial an IP, and these change nothing. */
export const OPEN_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

export interface RequestAccess {
  /** Canonical host names (see `hostNameOf`), port-agnostic. */
  readonly allowedHosts: readonly string[];
  /** Canonical origins (`scheme://host[:port]`) accepted besides the backend's own. */
  readonly allowedOrigins: readonly string[];
}

export const LOOPBACK_ACCESS: RequestAccess = Object.freeze({ allowedHosts: LOOPBACK_HOSTS, allowedOrigins: [] });

export interface Authority {
  /** Lowercase name or canonical IP literal (IPv6 in brackets), as WHATWG URL writes it. */
  readonly hostname: string;
  /** hostname plus `:port` unless the port is absent or 80. */
  readonly host: string;
}

const NOT_IN_AUTHORITY = /[\s/\\?#@]/;

/** Parses a Host header value (`name[:port]`); undefined when it is anything else. */
export function parseAuthority(value: string): Authority | undefined {
  if (value.length === 0 || NOT_IN_AUTHORITY.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    return undefined;
  }
  if (url.hostname === '') return undefined;
  return { hostname: url.hostname, host: url.host };
}

/** An allow-list entry: a bare host name or IP literal (no port); undefined when it is not one. */
export function canonicalHostName(entry: string): string | undefined {
  const bracketed = entry.includes(':') && !entry.startsWith('[') ? `[${entry}]` : entry;
  const authority = parseAuthority(bracketed);
  return authority !== undefined && authority.host === authority.hostname ? authority.hostname : undefined;
}

/** `http(s)://host[:port]` in canonical form (default port dropped, lowercase); undefined otherwise. */
export function canonicalOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return undefined;
  if (url.pathname !== '/') return undefined;
  return url.origin;
}

/** Loopback names plus the listen host (unless it is a wildcard) plus the configured extras, deduplicated. */
export function allowedHostsFor(listenHost: string, extras: readonly string[]): string[] {
  const listen = canonicalHostName(listenHost.trim());
  const own = listen === undefined || WILDCARD_HOSTS.has(listen) ? [] : [listen];
  return [...new Set([...LOOPBACK_HOSTS, ...own, ...extras])];
}

export interface RequestFacts {
  readonly method: string;
  readonly path: string;
  readonly host: string | undefined;
  readonly origin: string | undefined;
  readonly contentType: string | undefined;
  readonly contentLength: string | undefined;
  readonly transferEncoding: string | undefined;
  /** The port the request arrived on (the backend's own port, whatever a proxy or NAT published). */
  readonly localPort: number | undefined;
}

export interface Refusal {
  readonly status: 403 | 415;
  readonly code: Extract<RestErrorCode, 'permission_denied' | 'unsupported_media_type'>;
  readonly message: string;
}

/** Long enough for any DNS name; keeps an echoed header value from bloating the answer. */
const ECHO_LIMIT = 253;
const echo = (value: string): string => (value.length > ECHO_LIMIT ? `${value.slice(0, ECHO_LIMIT)}…` : value);

/**
 * The backend's own origin is `http://<the Host it was asked by>` (same-origin, what a browser sends
 * for a page served from us) or `http://<an allowed host>:<the port the request arrived on>`.
 */
export function isAllowedOrigin(
  origin: string,
  requestHost: Authority,
  localPort: number | undefined,
  access: RequestAccess,
): boolean {
  const canonical = canonicalOrigin(origin);
  if (canonical === undefined) return false;
  if (access.allowedOrigins.includes(canonical)) return true;
  const url = new URL(canonical);
  if (url.protocol !== 'http:' || !access.allowedHosts.includes(url.hostname)) return false;
  const port = url.port === '' ? 80 : Number(url.port);
  return url.host === requestHost.host || port === localPort;
}

/** True when the request announces a body: a positive Content-Length, or any Transfer-Encoding. */
export function announcesBody(contentLength: string | undefined, transferEncoding: string | undefined): boolean {
  if (transferEncoding !== undefined) return true;
  if (contentLength === undefined) return false;
  const length = Number(contentLength.trim());
  return !Number.isFinite(length) || length > 0;
}

/** The media type of a Content-Type value, lowercase, without parameters ('' when absent). */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
}

/** Host, then Origin, then the body's media type; undefined when the request may go on. */
export function judgeRequest(facts: RequestFacts, access: RequestAccess): Refusal | undefined {
  if ((facts.method === 'GET' || facts.method === 'HEAD') && OPEN_PATHS.has(facts.path)) return undefined;
  const authority = facts.host === undefined ? undefined : parseAuthority(facts.host);
  if (authority === undefined) {
    return { status: 403, code: 'permission_denied', message: 'missing or malformed Host header' };
  }
  if (!access.allowedHosts.includes(authority.hostname)) {
    return {
      status: 403,
      code: 'permission_denied',
      message: `Host "${echo(authority.hostname)}" is not served by this backend (allowed: loopback names, the listen host and KANDEV_ALLOWED_HOSTS)`,
    };
  }
  if (facts.origin !== undefined && !isAllowedOrigin(facts.origin, authority, facts.localPort, access)) {
    return {
      status: 403,
      code: 'permission_denied',
      message: `cross-origin request refused: Origin "${echo(facts.origin)}" is neither this backend nor listed in KANDEV_ALLOWED_ORIGINS`,
    };
  }
  const mediaType = mediaTypeOf(facts.contentType);
  if (announcesBody(facts.contentLength, facts.transferEncoding) && mediaType !== 'application/json') {
    return {
      status: 415,
      code: 'unsupported_media_type',
      message: `request body must be application/json (got ${mediaType === '' ? 'no Content-Type' : `"${echo(mediaType)}"`})`,
    };
  }
  return undefined;
}
