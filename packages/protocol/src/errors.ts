import { status } from '@grpc/grpc-js';

export const ERROR_CODES = [
  'invalid_argument',
  'not_found',
  'already_exists',
  'failed_precondition',
  'unauthenticated',
  'permission_denied',
  'unavailable',
  'deadline_exceeded',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The one error type of the project. Transports map `code` through the tables below. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'AppError';
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

// Records over the union are exhaustive: a new code does not compile until every transport maps it.
export const HTTP_STATUS: Record<ErrorCode, number> = {
  invalid_argument: 400,
  unauthenticated: 401,
  permission_denied: 403,
  not_found: 404,
  already_exists: 409,
  failed_precondition: 409,
  internal: 500,
  unavailable: 503,
  deadline_exceeded: 504,
};

export const GRPC_STATUS: Record<ErrorCode, status> = {
  invalid_argument: status.INVALID_ARGUMENT,
  not_found: status.NOT_FOUND,
  already_exists: status.ALREADY_EXISTS,
  failed_precondition: status.FAILED_PRECONDITION,
  unauthenticated: status.UNAUTHENTICATED,
  permission_denied: status.PERMISSION_DENIED,
  unavailable: status.UNAVAILABLE,
  deadline_exceeded: status.DEADLINE_EXCEEDED,
  internal: status.INTERNAL,
};

const CODE_FROM_GRPC = new Map<number, ErrorCode>(
  (Object.entries(GRPC_STATUS) as [ErrorCode, status][]).map(([code, grpcStatus]) => [grpcStatus, code]),
);

interface GrpcServiceErrorLike {
  code: number;
  details?: string;
  message: string;
}

function isGrpcServiceError(value: unknown): value is GrpcServiceErrorLike {
  return (
    value instanceof Error && typeof (value as Partial<GrpcServiceErrorLike>).code === 'number' && 'metadata' in value
  );
}

/**
 * An `UpdateFailure` off the wire (a lower_snake code and a message) as an AppError; a code this side
 * does not know is internal, never guessed.
 */
export function appErrorFromFailure(
  failure: { code: string; message: string } | null | undefined,
  what: string,
): AppError {
  const code = ERROR_CODES.find((known) => known === failure?.code) ?? 'internal';
  return new AppError(code, `${what}: ${failure?.message ?? 'no answer'}`);
}

/** Turns a grpc-js client error into an AppError, so callers never branch on numeric statuses. */
export function appErrorFromGrpc(error: unknown, what: string): AppError {
  if (isGrpcServiceError(error)) {
    const code = CODE_FROM_GRPC.get(error.code) ?? 'internal';
    return new AppError(
      code,
      `${what}: ${error.details ?? error.message}`,
      { grpcStatus: error.code },
      { cause: error },
    );
  }
  return new AppError('internal', `${what}: ${String(error)}`, undefined, { cause: error });
}

/** The `{ code, details }` a grpc-js handler passes to its callback for an error. */
export function grpcErrorFromAppError(error: AppError): { code: status; details: string } {
  return { code: GRPC_STATUS[error.code], details: error.message };
}
