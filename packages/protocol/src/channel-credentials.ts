import * as grpc from '@grpc/grpc-js';
import { isIP } from 'node:net';
import { checkServerIdentity } from 'node:tls';

/**
 * How a gRPC client verifies an agentctl that serves TLS (and proves itself with mutual TLS). PEM
 * contents, not paths: whoever reads the files (the backend's config) validates them once at start.
 */
export interface AgentctlTls {
  /** The CA bundle the agentctl's server certificate must chain to. */
  ca: Buffer;
  /** Client certificate and key for mutual TLS: both or neither. */
  cert?: Buffer;
  key?: Buffer;
  /** The name to verify the server certificate against, when it differs from the dialled host. */
  serverName?: string;
}

export interface AgentctlChannel {
  credentials: grpc.ChannelCredentials;
  options: grpc.ChannelOptions;
}

/**
 * The TLS server name (SNI) sent to an agentctl dialled by IP address without `serverName`. grpc-js
 * sends the dialled host there, which RFC 6066 forbids for an IP: Node 20-24 warn and drop it, Node 26
 * refuses to connect. Such a channel sends this name instead; its certificate is still checked against
 * the IP.
 */
export const IP_TARGET_SERVER_NAME = 'agentctl.invalid';

/** The host of a `host:port` address (an IPv6 host in brackets). */
function hostOf(address: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(address);
  if (bracketed !== null) return bracketed[1] ?? address;
  const colon = address.lastIndexOf(':');
  return colon === -1 ? address : address.slice(0, colon);
}

/**
 * The one place gRPC channel credentials to an agentctl at `address` are built (control client, Attach,
 * health): TLS when the endpoint has TLS settings, plaintext otherwise (the local executor on loopback,
 * or a profile that says `insecure: true`).
 */
export function agentctlChannel(
  address: string,
  tls: AgentctlTls | undefined,
  options: grpc.ChannelOptions = {},
): AgentctlChannel {
  if (tls === undefined) return { credentials: grpc.credentials.createInsecure(), options };
  if (tls.serverName !== undefined) {
    return {
      credentials: grpc.credentials.createSsl(tls.ca, tls.key ?? null, tls.cert ?? null),
      options: {
        ...options,
        'grpc.ssl_target_name_override': tls.serverName,
        'grpc.default_authority': tls.serverName,
      },
    };
  }
  const host = hostOf(address);
  if (isIP(host) === 0)
    return { credentials: grpc.credentials.createSsl(tls.ca, tls.key ?? null, tls.cert ?? null), options };
  // grpc-js checks the certificate against the override name; this checks it against the IP instead.
  const credentials = grpc.credentials.createSsl(tls.ca, tls.key ?? null, tls.cert ?? null, {
    checkServerIdentity: (_serverName, cert) => checkServerIdentity(host, cert),
  });
  return { credentials, options: { ...options, 'grpc.ssl_target_name_override': IP_TARGET_SERVER_NAME } };
}

// What OpenSSL and grpc-js say when a handshake fails: an unknown CA, a name mismatch, or the server
// refusing a client without a certificate (TLS 1.3 alert "certificate required", or a reset mid-handshake).
const TLS_FAILURE =
  /certificate|self[- ]signed|unable to (?:get|verify)|SSL|TLS|handshake|alert|EPROTO|ERR_TLS|Hostname\/IP does not match/i;

/** True when a gRPC error's details describe a TLS handshake or verification failure. */
export function isTlsFailure(details: string): boolean {
  return TLS_FAILURE.test(details);
}

/** What each OpenSSL reason means for the operator: which side of the configuration to look at. */
const TLS_HINTS: [RegExp, string][] = [
  [/alert certificate required/i, 'agentctl requires a client certificate (mutual TLS) and none was sent'],
  [/alert (?:bad certificate|unknown ca|decrypt error)/i, 'agentctl refused the client certificate'],
  [
    /unable to (?:verify|get)|self[- ]signed|certificate signature failure/i,
    "agentctl's certificate is not signed by the configured CA",
  ],
  [/altnames|Hostname\/IP does not match/i, "agentctl's certificate does not name the dialled host (set server_name)"],
  [/certificate has expired|not yet valid/i, "agentctl's certificate is outside its validity period"],
  [/wrong version number|packet length too long/i, 'agentctl does not serve TLS on this port (plaintext?)'],
];

/**
 * The message every TLS refusal carries: which agentctl, what it means, and OpenSSL's reason without
 * grpc-js's wrapping ("No connection established. Last error: … Resolution note:").
 */
export function tlsFailureMessage(address: string, details: string): string {
  const reason = details
    .replace(/^No connection established\. Last error: (?:Error(?: \[[A-Z_]+\])?: )?/, '')
    .replace(/^[0-9A-F]+:error:[0-9A-F]+:SSL routines:[a-z0-9_]+:/, '')
    .replace(/:\.\.\/deps\/openssl\/[^:]*:\d+:/, ', ')
    .replace(/\s*\(\d{4}-\d\d-\d\dT[^)]*\)/, '')
    .replace(/\.?\s*Resolution note:.*$/s, '')
    .replace(/[\s,]+$/, '');
  const hint = TLS_HINTS.find(([pattern]) => pattern.test(reason))?.[1];
  return `TLS verification failed against agentctl at ${address}: ${hint === undefined ? reason : `${hint} (${reason})`}`;
}
