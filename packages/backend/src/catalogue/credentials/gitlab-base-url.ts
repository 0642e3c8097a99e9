// Where a GitLab credential may send its token. A credential's base_url is where the backend calls
// out with the token (token check, MR polling), so an arbitrary URL would make the backend a
// request forwarder into its own network (http://127.0.0.1:…, cloud metadata) and leak the token.
// Pure: no I/O.

/** The GitLab instances the operator allows (KANDEV_GITLAB_HOSTS, KANDEV_GITLAB_INSECURE_HOSTS). */
export interface GitlabHostPolicy {
  /** Self-managed GitLab hosts, reached over https (gitlab.com always is). */
  hosts: readonly string[];
  /** Hosts that may also be reached over plain http (a lab instance, the tests' loopback server). */
  insecureHosts: readonly string[];
}

export const GITLAB_COM_HOST = 'gitlab.com';

export type BaseUrlVerdict = { ok: true } | { ok: false; reason: string };

/** `[::1]` and `::1` name the same host; an entry may also carry a port (`host:8443`). */
function unbracketed(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function listed(url: URL, entries: readonly string[]): boolean {
  const hostname = unbracketed(url.hostname.toLowerCase());
  const hostWithPort = url.host.toLowerCase();
  return entries.some((entry) => {
    const e = entry.toLowerCase();
    return unbracketed(e) === hostname || e === hostWithPort;
  });
}

/**
 * https on gitlab.com or a configured host; http only on a host in the insecure list. No credentials,
 * query or fragment in the URL: the client appends `/api/v4/…` to it.
 */
export function checkGitlabBaseUrl(value: string, policy: GitlabHostPolicy): BaseUrlVerdict {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: 'base_url is not a URL' };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'base_url must not contain credentials' };
  }
  if (url.search !== '' || url.hash !== '') {
    return { ok: false, reason: 'base_url must not have a query or fragment' };
  }
  if (url.protocol === 'https:') {
    if (url.hostname.toLowerCase() === GITLAB_COM_HOST || listed(url, policy.hosts)) return { ok: true };
    if (listed(url, policy.insecureHosts)) return { ok: true };
    return {
      ok: false,
      reason: `base_url host ${url.host} is not gitlab.com or a host in KANDEV_GITLAB_HOSTS`,
    };
  }
  if (url.protocol === 'http:') {
    if (listed(url, policy.insecureHosts)) return { ok: true };
    return {
      ok: false,
      reason: `base_url must be https: plain http is allowed only for hosts in KANDEV_GITLAB_INSECURE_HOSTS (not ${url.host})`,
    };
  }
  return { ok: false, reason: 'base_url must be an https URL' };
}
