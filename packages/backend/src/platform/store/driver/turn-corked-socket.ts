import { Socket } from 'node:net';

// pg corks its socket around the messages of each statement it sends (Parse, Bind, Describe, Execute,
// Sync): one system call per statement, a sizeable share of the backend's busy time on PostgreSQL. In
// pipeline mode a unit of work sends several statements in one go (sent-writes.ts). Here pg's cork
// lasts until the current turn's callbacks and promise jobs have run, so the statements of one turn
// (and a plain write after them, such as COMMIT) leave in one call, before the event loop waits for
// anything: no write waits longer than the code that made it.

/** A socket on which a cork lasts until the end of the current turn of the event loop. */
export class TurnCorkedSocket extends Socket {
  private corkedForTurn = false;

  override cork(): void {
    if (!this.corkedForTurn) {
      this.corkedForTurn = true;
      super.cork();
      process.nextTick(() => {
        this.corkedForTurn = false;
        this.uncork();
      });
    }
    super.cork();
  }
}
