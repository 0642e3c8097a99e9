/**
 * What the testing entry needs of a test's cleanup stack: a place to register teardown steps, run in
 * reverse when the test ends (test/helpers/cleanup.ts's Cleanup is one).
 */
export interface Cleanup {
  defer(step: () => unknown): void;
}
