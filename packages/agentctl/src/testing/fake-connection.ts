// Test-only: a SessionConnection that counts what the registry asks of it.
import type { SessionConnection } from '../sessions/session-connection';

export class FakeConnection implements SessionConnection {
  listChanged = 0;
  closed = 0;

  constructor(readonly id: string) {}

  notifyToolsChanged(): Promise<void> {
    this.listChanged += 1;
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closed += 1;
    return Promise.resolve();
  }
}
