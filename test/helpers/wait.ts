export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Printed with the failure, e.g. a daemon's captured stderr. */
  logs?: () => string;
  what?: string;
}

/** Polls a condition until it holds or the deadline passes; fails with the captured logs. */
export async function waitUntil<T>(probe: () => T | Promise<T>, options: WaitOptions): Promise<NonNullable<T>> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown;
  for (;;) {
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
