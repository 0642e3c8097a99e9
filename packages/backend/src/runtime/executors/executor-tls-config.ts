import { z } from 'zod';
import type { AgentctlTls } from '@kandev/protocol';

// Pure: the TLS part of executor profiles (executor-config.ts hands it the profile and a file reader).
// PEM files are read and checked once at start, so a launch never finds a missing or wrong file.

export type ReadTextFile = (path: string) => string;

/** Thrown with the settings that are wrong (names and paths of settings, never file contents). */
export class TlsConfigError extends Error {
  constructor(readonly variables: string[]) {
    super(`invalid TLS configuration: ${variables.join(', ')}`);
  }
}

/** What the docker executor hands each container's agentctl (mounted read-only) besides the client side. */
export interface AgentctlServerTls {
  cert: string;
  key: string;
  /** Set: agentctl requires client certificates signed by it (mutual TLS). */
  clientCa: string | undefined;
}

export interface DockerTls {
  /** How the backend verifies (and, with a client cert, authenticates to) the container's agentctl. */
  client: AgentctlTls;
  server: AgentctlServerTls;
}

/** A profile's `tls` object: PEM file paths. */
export const ClientTlsSchema = z
  .object({
    ca: z.string().min(1),
    cert: z.string().min(1).optional(),
    key: z.string().min(1).optional(),
    server_name: z.string().min(1).optional(),
  })
  .strict();
export const DockerTlsSchema = ClientTlsSchema.extend({
  agentctl_cert: z.string().min(1),
  agentctl_key: z.string().min(1),
  agentctl_client_ca: z.string().min(1).optional(),
}).strict();

const PEM_CERT = /-----BEGIN CERTIFICATE-----/;
const PEM_KEY = /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/;

function readPem(setting: string, path: string, label: RegExp, readText: ReadTextFile): string {
  let text: string;
  try {
    text = readText(path);
  } catch {
    throw new TlsConfigError([`${setting} (cannot read the file)`]);
  }
  if (!label.test(text)) throw new TlsConfigError([`${setting} (not a PEM file of the expected kind)`]);
  return text;
}

/** The client side: a CA, and a client cert and key together or not at all. `prefix` names the settings. */
export function clientTls(
  files: z.infer<typeof ClientTlsSchema>,
  prefix: (field: string) => string,
  readText: ReadTextFile,
): AgentctlTls {
  if ((files.cert === undefined) !== (files.key === undefined)) {
    throw new TlsConfigError([`${prefix('cert')} and ${prefix('key')} (both or neither)`]);
  }
  const read = (field: 'cert' | 'key', label: RegExp): Buffer | undefined => {
    const path = files[field];
    return path === undefined ? undefined : Buffer.from(readPem(prefix(field), path, label, readText));
  };
  const ca = Buffer.from(readPem(prefix('ca'), files.ca, PEM_CERT, readText));
  const cert = read('cert', PEM_CERT);
  const key = read('key', PEM_KEY);
  return {
    ca,
    ...(cert === undefined || key === undefined ? {} : { cert, key }),
    ...(files.server_name === undefined ? {} : { serverName: files.server_name }),
  };
}

/** A docker profile's TLS: the client side plus the certificate (and client CA) each container serves with. */
export function dockerTls(files: z.infer<typeof DockerTlsSchema>, profile: string, readText: ReadTextFile): DockerTls {
  const prefix = (field: string) => `KANDEV_EXECUTOR_PROFILES.${profile}.tls.${field}`;
  const client = clientTls(files, prefix, readText);
  // A client CA without a client cert would refuse the backend itself on every launch.
  if (files.agentctl_client_ca !== undefined && client.cert === undefined) {
    throw new TlsConfigError([`${prefix('agentctl_client_ca')} (needs ${prefix('cert')} and ${prefix('key')})`]);
  }
  return {
    client,
    server: {
      cert: readPem(prefix('agentctl_cert'), files.agentctl_cert, PEM_CERT, readText),
      key: readPem(prefix('agentctl_key'), files.agentctl_key, PEM_KEY, readText),
      clientCa:
        files.agentctl_client_ca === undefined
          ? undefined
          : readPem(prefix('agentctl_client_ca'), files.agentctl_client_ca, PEM_CERT, readText),
    },
  };
}
