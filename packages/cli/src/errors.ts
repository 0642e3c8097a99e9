// Every failure the CLI reports is a CliError of one kind; the kind alone decides the exit code, so
// scripts can tell "no such task" from "the backend is down" without parsing messages.

export const EXIT_CODES = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  not_found: 3,
  auth: 4,
  conflict: 5,
  unavailable: 6,
} as const;

export type ErrorKind = Exclude<keyof typeof EXIT_CODES, 'ok'>;

export class CliError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'CliError';
  }

  get exitCode(): number {
    return EXIT_CODES[this.kind];
  }
}

/** The kind of an HTTP error status: 400/413/422 are bad input, 5xx the backend failing. */
export function kindOfStatus(status: number): ErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status >= 500) return 'unavailable';
  if (status >= 400) return 'usage';
  return 'unexpected';
}

export function usage(message: string): CliError {
  return new CliError('usage', message);
}

/** Nothing has that id (exit 3). */
export function notFound(message: string): CliError {
  return new CliError('not_found', message);
}

/** The one JSON object `--json` prints on stderr for a failure: the kind is the code scripts match on. */
export function errorJson(kind: ErrorKind, message: string): string {
  return `${JSON.stringify({ error: { code: kind, message } })}\n`;
}
