import { z } from 'zod';
import { ERROR_CODES } from '@kandev/protocol';

// Every `error.code` a REST refusal can carry: the project's AppError codes, plus the one the HTTP layer
// adds for a body it will not read. The single source of the `Error` schema in GET /api/openapi.json,
// of the error middleware's types and of the Host/Origin/media-type guard's refusals.
export const REST_ERROR_CODES = [...ERROR_CODES, 'unsupported_media_type'] as const;
export const RestErrorCodeSchema = z.enum(REST_ERROR_CODES);
export type RestErrorCode = z.output<typeof RestErrorCodeSchema>;
