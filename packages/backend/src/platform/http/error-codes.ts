import { z } from 'zod';
import { ERROR_CODES } from '@kandev/protocol';

// Every `error.code` a REST refusal can carry: the project's AppError codes, plus those only the HTTP
// layer answers: a body it will not read, and an address refused after too many failed authentications.
// The single source of the `Error` schema in GET /api/openapi.json, of the error middleware's types and
// of the Host/Origin/media-type guard's refusals.
export const REST_ERROR_CODES = [...ERROR_CODES, 'unsupported_media_type', 'too_many_requests'] as const;
export const RestErrorCodeSchema = z.enum(REST_ERROR_CODES);
export type RestErrorCode = z.output<typeof RestErrorCodeSchema>;
