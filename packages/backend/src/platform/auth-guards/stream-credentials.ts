import type { Response } from 'express';
import { authenticatedToken } from '../auth/auth-middleware';
import type { TokenRevocationSignals } from '../auth/api-token-service';

/** How often every open stream's token is read again, whatever was signalled (a lost signal's backstop). */
export const STREAM_RECHECK_MS = 30_000;

export interface StreamCredentialsDeps {
  /** Reads the token's state from the database, bypassing any trusted check. */
  isActive(token: string): Promise<boolean>;
  signals: Pick<TokenRevocationSignals, 'subscribe'>;
  recheckMs?: number;
  onError?: (error: unknown) => void;
}

interface Watched {
  token: string;
  end: () => void;
}

/**
 * The credential behind each open event stream (an SSE response outlives the auth check that let it
 * in): a revocation on any replica (`token_revoked`), a resync after lost signals, and a periodic
 * backstop each re-read the tokens of the streams open here, and a stream whose token is no longer
 * active is ended. A stream is also re-checked as it registers: a revocation signalled between its
 * auth check and its registration is not missed.
 */
export class StreamCredentials {
  private readonly open = new Map<Response, Watched>();
  private readonly unsubscribe: () => void;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly deps: StreamCredentialsDeps) {
    const recheckAll = () => void this.recheckAll();
    this.unsubscribe = deps.signals.subscribe('token_revoked', { signal: recheckAll, resync: recheckAll });
    this.timer = setInterval(recheckAll, deps.recheckMs ?? STREAM_RECHECK_MS);
    this.timer.unref();
  }

  /** The StreamGuard of GET /api/events. */
  watch(res: Response, end: () => void): () => void {
    const token = authenticatedToken(res);
    if (token === undefined) return () => undefined; // an in-process app without auth
    const watched: Watched = { token, end };
    this.open.set(res, watched);
    void this.recheck(res, watched);
    return () => {
      this.open.delete(res);
    };
  }

  get watchedCount(): number {
    return this.open.size;
  }

  stop(): void {
    clearInterval(this.timer);
    this.unsubscribe();
  }

  private async recheckAll(): Promise<void> {
    // One read per distinct token, however many streams it opened.
    const byToken = new Map<string, [Response, Watched][]>();
    for (const entry of this.open) byToken.set(entry[1].token, [...(byToken.get(entry[1].token) ?? []), entry]);
    await Promise.all(
      [...byToken.values()].map(async (entries) => {
        const first = entries[0];
        if (first === undefined || (await this.stillActive(first[1].token))) return;
        for (const [res, watched] of entries) this.endStream(res, watched);
      }),
    );
  }

  private async recheck(res: Response, watched: Watched): Promise<void> {
    if (!(await this.stillActive(watched.token))) this.endStream(res, watched);
  }

  /** A failed read ends the stream too (fails closed): the client reconnects and is checked afresh. */
  private async stillActive(token: string): Promise<boolean> {
    try {
      return await this.deps.isActive(token);
    } catch (error) {
      this.deps.onError?.(error);
      return false;
    }
  }

  private endStream(res: Response, watched: Watched): void {
    if (this.open.get(res) !== watched) return;
    this.open.delete(res);
    watched.end();
  }
}
