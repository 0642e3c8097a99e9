/** A host clients can dial: a wildcard bind address becomes loopback; IPv6 literals get brackets. */
export function connectableHost(bindHost: string): string {
  if (bindHost === '0.0.0.0' || bindHost === '') return '127.0.0.1';
  if (bindHost === '::' || bindHost === '[::]') return '[::1]';
  return bindHost.includes(':') && !bindHost.startsWith('[') ? `[${bindHost}]` : bindHost;
}
