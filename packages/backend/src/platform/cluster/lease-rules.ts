// The lease rule, pure: what a claim, a renewal or a release does to one lease. The store applies the
// same rule in one conditional statement (lease-store.ts); the property test checks the rule and the
// store against each other and that a name never has two holders at one instant.

/** One lease as stored: who holds `name` until when (epoch ms, the claiming replica's clock). */
export interface Lease {
  name: string;
  owner: string;
  expiresAtMs: number;
}

/** Whether `lease` is held at `nowMs` (an expired lease is free, whoever it names). */
export function isHeld(lease: Lease | undefined, nowMs: number): lease is Lease {
  return lease !== undefined && lease.expiresAtMs > nowMs;
}

/** The holder at `nowMs`, if any. */
export function holderAt(lease: Lease | undefined, nowMs: number): string | undefined {
  return isHeld(lease, nowMs) ? lease.owner : undefined;
}

/**
 * A claim by `owner`: granted when the lease is free (absent or expired) or already the owner's (then it
 * is renewed); refused while another replica holds it. The granted lease runs `ttlMs` from now.
 */
export function claim(
  lease: Lease | undefined,
  name: string,
  owner: string,
  nowMs: number,
  ttlMs: number,
): Lease | null {
  if (isHeld(lease, nowMs) && lease.owner !== owner) return null;
  return { name, owner, expiresAtMs: nowMs + ttlMs };
}

/**
 * A renewal: only the owner of a lease still held extends it. An expired lease is NOT renewed, even when
 * no one took it: its owner may already have been presumed dead, so it claims again instead.
 */
export function renew(lease: Lease | undefined, owner: string, nowMs: number, ttlMs: number): Lease | null {
  if (!isHeld(lease, nowMs) || lease.owner !== owner) return null;
  return { ...lease, expiresAtMs: nowMs + ttlMs };
}

/** A release: only the owner frees it (true), whether or not it expired meanwhile. */
export function canRelease(lease: Lease | undefined, owner: string): boolean {
  return lease !== undefined && lease.owner === owner;
}
