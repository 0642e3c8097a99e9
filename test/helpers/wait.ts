export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Printed with the failure, e.g. a daemon's captured stderr. */
  logs?: () => string;
  what?: string;
  /** Ends the wait at once (e.g. the test ended): work a failed test left running stops polling. */
  signal?: AbortSignal;
}

/** Polls a condition until it holds or the deadline passes; fails with the captured logs. */
export async function waitUntil<T>(probe: () => T | Promise<T>, options: WaitOptions): Promise<NonNullable<T>> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown;
  for (;;) {
    if (options.signal?.aborted === true) throw new Error(`stopped waiting for ${options.what ?? 'condition'}`);
    try {
      const value = await probe();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const reason = lastError instanceof Error ? `; last error: ${lastError.message}` : '';
      throw new Error(
        `timed out after ${options.timeoutMs} ms waiting for ${options.what ?? 'condition'}${reason}\n${options.logs?.() ?? ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 25));
  }
}

/**
 * The barrier before asserting that a lifecycle poller queued nothing more: a poll later than the one
 * already seen (`polled_at` of GET …/lifecycle moved on).
 */
export async function waitForAnotherPoll(
  lifecycle: () => Promise<{ polled_at: string | null }>,
  options: Omit<WaitOptions, 'what'>,
): Promise<void> {
  const seen = (await lifecycle()).polled_at ?? '';
  await waitUntil(
    async () => {
      const view = await lifecycle();
      return view.polled_at !== null && view.polled_at > seen ? view : undefined;
    },
    { ...options, what: 'another poll' },
  );
}
