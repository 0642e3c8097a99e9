import pino, { type Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type { Logger };

/** The root logger: JSON to stderr (stdout carries only the ready line), secrets redacted. */
export function createLogger(level: LogLevel): Logger {
  return pino(
    {
      name: 'backend',
      level,
      redact: {
        paths: ['token', '*.token', 'mcpToken', '*.mcpToken', 'controlToken', '*.controlToken', 'env', '*.env'],
        censor: '[redacted]',
      },
    },
    pino.destination({ fd: 2, sync: true }),
  );
}
