import { z } from 'zod';
import { MAX_PAGE_LIMIT } from '../task-state';

// Input pieces several tools share. One definition: agentctl validates with them before forwarding and
// the backend re-validates with the same schemas (discovery is not a security boundary).

export const MAX_DESCRIPTION_LENGTH = 20_000;
export const MAX_SOURCES_PER_TOOL_CALL = 20;

/** Any row id: unknown ids are the handler's not_found, so only the shape is checked here. */
export const toolId = () => z.string().trim().min(1).max(128);

export const taskTitle = () => z.string().trim().min(1).max(60);

export const pageLimit = () =>
  z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_LIMIT)
    .optional()
    .describe(`Page size, 1-${MAX_PAGE_LIMIT}. The backend picks a default.`);

export const pageCursor = () =>
  z
    .string()
    .min(1)
    .max(512)
    .optional()
    .describe('Opaque cursor from the previous page (`next_cursor`). Omit for the first page.');
