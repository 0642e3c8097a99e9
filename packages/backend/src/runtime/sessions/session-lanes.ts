/**
 * One in-process lane per session: work queued on a session's lane runs after the work queued before
 * it, never alongside it. Session events, drains, resume, stop and the boot reconcile all run on it,
 * so within one backend a session's state is never changed by two of them at once (the database's
 * compare-and-set covers everything else: another process, a stale read). Work on a lane must not
 * await other work queued on the same lane (queue it and move on).
 */
export class SessionLanes {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Queues `work` on the session's lane; resolves or rejects with it. Enqueues synchronously. */
  run<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(sessionId) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(sessionId, tail);
    void tail.then(() => {
      if (this.tails.get(sessionId) === tail) this.tails.delete(sessionId);
    });
    return result;
  }

  /** Resolves once every lane has run what was queued so far (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails.values()]);
  }
}
