// On PostgreSQL each statement costs a network round trip. The connections run in pg's pipeline mode: a
// statement goes on the wire at once, behind those still awaiting their answers. So inside a unit of
// work a write whose answer its caller does not need (an event, a row whose key the caller chose) is
// *sent*, not awaited (store-transaction.ts, `sendWrite`): it travels with the next statement that is
// awaited, or with the COMMIT. The connection runs statements in the order they were sent, so the
// transaction reads its own writes. A sent write that fails aborts the transaction (the statements
// after it fail, COMMIT answers ROLLBACK), and the unit of work throws that write's own error.

/** The statements a transaction sent without awaiting them: what it checks once it ended. */
export class SentWrites {
  private readonly answers: Promise<void>[] = [];
  private failure: { error: unknown } | undefined;

  /** Keeps `answer`; its rejection is held (never unhandled) until `settle`. */
  track(answer: Promise<unknown>): void {
    this.answers.push(
      answer.then(
        () => undefined,
        (error: unknown) => {
          this.failure ??= { error };
        },
      ),
    );
  }

  /** Waits for every answer; throws the first failed statement's error (the transaction rolled back). */
  async settle(): Promise<void> {
    await Promise.all(this.answers);
    if (this.failure !== undefined) throw this.failure.error;
  }
}
