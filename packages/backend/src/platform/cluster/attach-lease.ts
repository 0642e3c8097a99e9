// The Attach lease: its name and timing. OwnedAttach (beside the Attach pool) takes and renews it; the
// replica setup and the lease routes use them too, without depending on the agentctl link.

/** How long an Attach lease runs and how often its holder renews it (KANDEV_REPLICA_LEASE_*). */
export interface LeaseTiming {
  ttlMs: number;
  renewMs: number;
}

export const LEASE_TIMING_DEFAULTS: LeaseTiming = { ttlMs: 10_000, renewMs: 3_000 };

/** The lease that says which replica keeps an agentctl's Attach stream: keyed by its gRPC address. */
export function attachLeaseName(grpcAddress: string): string {
  return `attach:${grpcAddress}`;
}
