import { z } from 'zod';
import type { Provider__Output as WireProvider } from './generated/kandev/agentctl/v1/Provider';

/** Review-automation providers that can add tools. Also the canonical (stable) order of a provider set. */
export const PROVIDERS = ['github', 'gitlab'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const ProviderSchema = z.enum(PROVIDERS);

export function isProvider(value: unknown): value is Provider {
  return typeof value === 'string' && (PROVIDERS as readonly string[]).includes(value);
}

/** Trim + lowercase; anything outside the allowlist (blank, `local`, `bitbucket`, …) is no provider. */
export function normalizeProvider(value: unknown): Provider | null {
  if (typeof value !== 'string') return null;
  const normalized = value.trim().toLowerCase();
  return isProvider(normalized) ? normalized : null;
}

/**
 * A provider set: normalise every value, drop what is not allowlisted, dedupe, canonical order.
 * The result depends only on which providers occur, never on input order or repetition.
 */
export function normalizeProviderSet(values: Iterable<unknown>): Provider[] {
  const present = new Set<Provider>();
  for (const value of values) {
    const provider = normalizeProvider(value);
    if (provider !== null) present.add(provider);
  }
  return PROVIDERS.filter((provider) => present.has(provider));
}

// Keyed by every wire name, so adding a value to the .proto breaks the build right here.
const FROM_WIRE = {
  PROVIDER_UNSPECIFIED: undefined,
  PROVIDER_GITHUB: 'github',
  PROVIDER_GITLAB: 'gitlab',
} as const satisfies Record<WireProvider, Provider | undefined>;

const TO_WIRE = {
  github: 'PROVIDER_GITHUB',
  gitlab: 'PROVIDER_GITLAB',
} as const satisfies Record<Provider, WireProvider>;

export function providerToWire(provider: Provider): WireProvider {
  return TO_WIRE[provider];
}

/**
 * Wire providers to a normalised set. Unknown enum numbers (a newer backend) and UNSPECIFIED are
 * ignored: fail closed, an unknown provider never adds a tool.
 */
export function providersFromWire(values: readonly unknown[]): Provider[] {
  return normalizeProviderSet(
    values.map((value) => (typeof value === 'string' && value in FROM_WIRE ? FROM_WIRE[value as WireProvider] : null)),
  );
}
