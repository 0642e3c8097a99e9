import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentctlServerTls } from '../executor-tls-config';

/** Host paths of one container's TLS files, bind-mounted read-only like its token file. */
export interface ContainerTlsFiles {
  cert: string;
  key: string;
  clientCa: string | undefined;
}

const SUFFIXES = ['tls-cert.pem', 'tls-key.pem', 'tls-client-ca.pem'] as const;

/**
 * Each container gets its own copy of the profile's agentctl certificate, key and client CA next to
 * its token file (same 0700 directory, same 0444 files: the container's non-root user has another uid
 * than the backend), so the operator's originals keep their own modes and paths out of the container.
 */
export class DockerTlsFiles {
  constructor(private readonly dir: string) {}

  create(containerName: string, tls: AgentctlServerTls): ContainerTlsFiles {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const write = (suffix: (typeof SUFFIXES)[number], pem: string): string => {
      const path = join(this.dir, `${containerName}.${suffix}`);
      writeFileSync(path, pem, { mode: 0o444 });
      chmodSync(path, 0o444);
      return path;
    };
    return {
      cert: write('tls-cert.pem', tls.cert),
      key: write('tls-key.pem', tls.key),
      clientCa: tls.clientCa === undefined ? undefined : write('tls-client-ca.pem', tls.clientCa),
    };
  }

  remove(containerName: string): void {
    for (const suffix of SUFFIXES) rmSync(join(this.dir, `${containerName}.${suffix}`), { force: true });
  }
}
