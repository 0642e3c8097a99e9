/** A per-test stack of teardown steps, run in reverse in afterEach. */
export class Cleanup {
  private readonly steps: (() => unknown)[] = [];
  private closed = false;

  /**
   * Registers a teardown step. After the test's teardown ran (e.g. the test timed out and its body is
   * still going), the step runs at once, so a late-started process is never left behind.
   */
  defer(step: () => unknown): void {
    if (this.closed) {
      void Promise.resolve()
        .then(step)
        .catch(() => undefined);
      return;
    }
    this.steps.push(step);
  }

  reopen(): void {
    this.closed = false;
  }

  async run(): Promise<void> {
    this.closed = true;
    const errors: unknown[] = [];
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, 'cleanup failed');
  }
}

/** Registers a fresh Cleanup for every test of the enclosing describe/file. */
export function useCleanup(): Cleanup {
  const cleanup = new Cleanup();
  beforeEach(() => cleanup.reopen());
  afterEach(() => cleanup.run());
  return cleanup;
}
