// On PostgreSQL every /api request's token check was a round trip of its own before any work, a large
// share of a source change (docs/benchmarks.md). A token found active is trusted for a short while
// instead; revocation stays synchronous (docs/security.md#operator-api-tokens): the replica that revokes
// forgets the token at once, and where other replicas share the database the revocation answers only
// after every check they may still trust has expired.

/** How long a token found active is trusted without reading the database again. */
export const TOKEN_CHECK_TTL_MS = 1_000;

/** Tokens kept at most; an operator holds a handful, so this only bounds a misuse. */
const MAX_ENTRIES = 1_000;

interface Entry {
  tokenId: string;
  /** Monotonic time after which the check is made again. */
  until: number;
}

/**
 * Successful token checks by token hash, each trusted until TTL after its read was *sent*: a read sent
 * before a revocation committed ends its trust before the revocation's wait ends (TTL after the
 * commit), whichever replica sent it.
 */
export class TokenCheckCache {
  private readonly entries = new Map<string, Entry>();
  /** Moves on every revocation: a check whose read began before it is not kept. */
  private revocations = 0;

  constructor(
    private readonly now: () => number,
    readonly ttlMs = TOKEN_CHECK_TTL_MS,
  ) {}

  /** True when `hash` was found active less than TTL ago. */
  trusts(hash: string): boolean {
    const entry = this.entries.get(hash);
    if (entry === undefined) return false;
    if (this.now() < entry.until) return true;
    this.entries.delete(hash);
    return false;
  }

  /** Call before reading the token: `keep` records what the read found (active, with its id). */
  begin(hash: string): { keep(tokenId: string): void } {
    const sentAt = this.now();
    const revocations = this.revocations;
    return {
      keep: (tokenId) => {
        if (this.revocations !== revocations) return; // a revocation came in between: read again next time
        if (this.entries.size >= MAX_ENTRIES && !this.entries.has(hash)) this.dropOldest();
        this.entries.set(hash, { tokenId, until: sentAt + this.ttlMs });
      },
    };
  }

  /** The token is revoked: never trusted again here, nor by a check still in flight. */
  forget(tokenId: string): void {
    this.revocations += 1;
    for (const [hash, entry] of this.entries) if (entry.tokenId === tokenId) this.entries.delete(hash);
  }

  private dropOldest(): void {
    const oldest = this.entries.keys().next();
    if (oldest.done !== true) this.entries.delete(oldest.value);
  }
}
