/** A per-test stack of teardown steps, run in reverse in afterEach. */
export class Cleanup {
  private readonly steps: (() => unknown)[] = [];

  defer(step: () => unknown): void {
    this.steps.push(step);
  }

  async run(): Promise<void> {
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
  afterEach(() => cleanup.run());
  return cleanup;
}
