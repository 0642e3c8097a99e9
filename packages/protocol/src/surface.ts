import { z } from 'zod';
import { AppError } from './errors';
import type { Surface__Output as WireSurface } from './generated/kandev/agentctl/v1/Surface';

/** Where a session runs; selects its core tool group. */
export const SURFACES = ['kanban_task', 'office_task', 'configuration'] as const;
export type Surface = (typeof SURFACES)[number];
export const SurfaceSchema = z.enum(SURFACES);

const FROM_WIRE = {
  SURFACE_UNSPECIFIED: undefined,
  SURFACE_KANBAN_TASK: 'kanban_task',
  SURFACE_OFFICE_TASK: 'office_task',
  SURFACE_CONFIGURATION: 'configuration',
} as const satisfies Record<WireSurface, Surface | undefined>;

const TO_WIRE = {
  kanban_task: 'SURFACE_KANBAN_TASK',
  office_task: 'SURFACE_OFFICE_TASK',
  configuration: 'SURFACE_CONFIGURATION',
} as const satisfies Record<Surface, WireSurface>;

export function surfaceToWire(surface: Surface): WireSurface {
  return TO_WIRE[surface];
}

/** UNSPECIFIED or an unknown value is rejected: fail closed. */
export function surfaceFromWire(value: unknown): Surface {
  const surface = typeof value === 'string' && value in FROM_WIRE ? FROM_WIRE[value as WireSurface] : undefined;
  if (surface === undefined) {
    throw new AppError(
      'invalid_argument',
      `surface must be KANBAN_TASK, OFFICE_TASK or CONFIGURATION, got ${String(value)}`,
    );
  }
  return surface;
}
