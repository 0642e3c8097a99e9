import { z } from 'zod';

/** Any row id as it arrives from a client: unknown ids are a 404, not a 400, so only the shape is checked. */
export const IdSchema = z.string().trim().min(1).max(128);

export const IdParamsSchema = z.object({ id: IdSchema }).strict();
