/**
 * agentctl outlives the process that started it, so its stdout/stderr pipes may break at any time.
 * Writes to a broken pipe fail with EPIPE (an 'error' event that would otherwise crash the process).
 * Those streams are the only place such an error could be reported, so every stdio error is ignored
 * and the daemon keeps serving.
 */
export function ignoreBrokenPipes(streams: readonly NodeJS.WritableStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) stream.on('error', () => undefined);
}
