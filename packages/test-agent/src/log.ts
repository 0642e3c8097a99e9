// Logs go to stderr only: stdout carries the ACP ndjson stream.
export type Log = (message: string, fields?: Record<string, unknown>) => void;

export function createStderrLog(write: (line: string) => void = (line) => process.stderr.write(line)): Log {
  return (message, fields) => write(`${JSON.stringify({ name: 'test-agent', msg: message, ...fields })}\n`);
}
