// The Attach lease: its name and timing. OwnedAttach (beside the Attach pool) takes and renews it; the
// replica setup and the lease routes use them too, without depending on the agentctl link.

/** How long an Attach lease runs and how often its holder renews it (KANDEV_REPLICA_LEASE_*). */
export interface LeaseTiming {
  ttlMs: number;
  renewMs: number;
}

export const LEASE_TIMING_DEFAULTS: LeaseTiming = { ttlMs: 10_000, renewMs: 3_000 };

/**
 * The lease that says which replica keeps an agentctl's Attach stream: keyed by its gRPC address, or by
 * `<address>@<replica>` for a replica's own local agentctl (another replica's may have the same address).
 */
export function attachLeaseName(agentctlKey: string): string {
  return `attach:${agentctlKey}`;
}

/** An Attach lease's agentctl: its gRPC address, and the replica it is local to (null: every replica reaches it). */
export function attachedAgentctlOf(leaseName: string): { grpcAddress: string; localTo: string | null } {
  const key = leaseName.slice(attachLeaseName('').length);
  const at = key.lastIndexOf('@');
  return at < 0 ? { grpcAddress: key, localTo: null } : { grpcAddress: key.slice(0, at), localTo: key.slice(at + 1) };
}
