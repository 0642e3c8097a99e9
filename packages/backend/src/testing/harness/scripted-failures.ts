// How the fake agentctl answers a call: it records the call, then answers, or fails with the failure
// the test injected: one for every call (`failure`), or one scheduled for the next call of a method,
// before it takes effect or after (the reply was lost: an ambiguous failure).
export type Method = 'CreateSession' | 'GetSession' | 'Prompt' | 'CancelTurn' | 'StopSession';

interface ScheduledFailure {
  method: Method;
  error: Error;
  /** The call takes effect, then fails. */
  afterApplying: boolean;
}

export class ScriptedFailures {
  /** Every call, in order, as one line each (`Prompt <session> <prompt>`). */
  readonly calls: string[] = [];
  /** When set, every call records itself and fails with this error. */
  failure: Error | undefined;
  private readonly scheduled: ScheduledFailure[] = [];

  /** The next call of `method` fails with `error` (after taking effect, with afterApplying). */
  failNext(method: Method, error: Error, options: { afterApplying?: boolean } = {}): void {
    this.scheduled.push({ method, error, afterApplying: options.afterApplying ?? false });
  }

  /** Drops the failures scheduled with failNext that no call took yet. */
  clearScheduled(): void {
    this.scheduled.splice(0);
  }

  /**
   * Records the call; answers with `work`'s result, or fails with the injected failure (before or after
   * taking effect). `onFailure` runs only when the failure is an injected one.
   */
  answer<T>(method: Method | undefined, call: string, work: () => T, onFailure?: () => void): Promise<T> {
    this.calls.push(call);
    const index = this.scheduled.findIndex((failure) => failure.method === method);
    const scheduled = index < 0 ? undefined : this.scheduled.splice(index, 1)[0];
    try {
      if (this.failure !== undefined) throw this.failure;
      if (scheduled !== undefined && !scheduled.afterApplying) throw scheduled.error;
      const result = work();
      if (scheduled !== undefined) throw scheduled.error;
      return Promise.resolve(result);
    } catch (error) {
      if (error === this.failure || error === scheduled?.error) onFailure?.();
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
