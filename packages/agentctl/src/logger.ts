import pino from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type Logger = pino.Logger;

/**
 * The root logger: JSON lines on stderr (stdout carries only the ready line). A broken stderr pipe
 * (the process that started agentctl died) silences logging instead of crashing the daemon.
 */
export function createLogger(level: LogLevel): Logger {
  const destination = pino.destination({ dest: 2, sync: true });
  destination.on('error', () => undefined);
  return pino(
    {
      name: 'agentctl',
      level,
      redact: {
        paths: [
          'token',
          '*.token',
          'mcpToken',
          '*.mcpToken',
          'mcp_token',
          '*.mcp_token',
          'authorization',
          '*.authorization',
          'req.headers.authorization',
          'env',
          '*.env',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
