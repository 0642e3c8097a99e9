import {
  AppError,
  type LaunchConfig,
  launchConfigFromWire,
  providersFromWire,
  revisionFromWire,
  type WireLaunchConfigOutput,
  type WireUpdateProvidersRequestOutput,
} from '@kandev/protocol';
import { z } from 'zod';
import type { ProviderUpdate } from '../sessions/session-registry';

// gRPC request edge: wire objects in, typed domain values out (or AppError invalid_argument).

const SessionIdRequestSchema = z.object({ session_id: z.string().min(1, 'session_id is required') });

/** CreateSession: the real MCP token is required here (and only here). */
export function parseLaunchConfig(wire: WireLaunchConfigOutput): LaunchConfig {
  return launchConfigFromWire(wire, { requireToken: true });
}

/** UpdateProviders: unknown provider numbers are dropped (fail closed). */
export function parseProviderUpdate(wire: WireUpdateProvidersRequestOutput): ProviderUpdate {
  return {
    sessionId: parseSessionId(wire),
    providers: providersFromWire(wire.providers),
    revision: revisionFromWire(wire.revision),
  };
}

export function parseSessionId(wire: unknown): string {
  const parsed = SessionIdRequestSchema.safeParse(wire);
  if (!parsed.success) throw new AppError('invalid_argument', 'session_id is required');
  return parsed.data.session_id;
}
