export interface ReadyLine {
  event: 'ready';
  grpcPort: number;
  mcpPort: number;
  /** What the gRPC listener speaks: plaintext, tls, or mtls (client certificates required). */
  grpcTransport: 'plaintext' | 'tls' | 'mtls';
  /** Only when KANDEV_AGENTCTL_METRICS_ADDR is set. */
  metricsPort?: number;
  pid: number;
}

let written = false;

/**
 * Prints the one JSON line launchers wait for, once both listeners are up. After it, stdout is never
 * written again (logs go to stderr).
 */
export function writeReadyLine(
  ports: {
    grpcPort: number;
    mcpPort: number;
    grpcTransport: ReadyLine['grpcTransport'];
    metricsPort?: number;
  },
  out: NodeJS.WritableStream = process.stdout,
): ReadyLine {
  const { metricsPort, ...rest } = ports;
  const metrics = metricsPort === undefined ? {} : { metricsPort };
  const line: ReadyLine = { event: 'ready', ...rest, ...metrics, pid: process.pid };
  if (written) throw new Error('the ready line was already written');
  written = true;
  out.write(`${JSON.stringify(line)}\n`);
  return line;
}
