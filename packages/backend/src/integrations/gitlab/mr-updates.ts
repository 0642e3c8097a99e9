import type { Logger } from '../../platform/logger/logger';
import type { MrState } from '../provider-automation/review-link';
import type { PollTarget } from './mr-lifecycle-store';

// The internal 'MR updated' event. The poller's read of an MR carries the reviewer list it just got,
// marked valid, to the evaluator: one GitLab read per poll serves both. Any other source (a manual
// evaluation, a state change learned without reviewers) sends `{ valid: false }`, and the evaluator
// falls back to one read of its own. Reviewer lists are never stored.

export type ReviewerObservation = { valid: true; usernames: readonly string[] } | { valid: false };

/** The MR a poll read (or a manual evaluation names), with what was observed. */
export interface MrUpdatedEvent extends PollTarget {
  state: MrState;
  headSha: string | null;
  reviewers: ReviewerObservation;
}

export type MrUpdateHandler = (event: MrUpdatedEvent) => Promise<void>;

/** In-process fan-out. `emit` resolves once every handler settled; a handler's failure is logged only. */
export class MrUpdates {
  private readonly handlers: MrUpdateHandler[] = [];

  constructor(private readonly logger: Logger) {}

  subscribe(handler: MrUpdateHandler): void {
    this.handlers.push(handler);
  }

  async emit(event: MrUpdatedEvent): Promise<void> {
    await Promise.all(
      this.handlers.map((handler) =>
        handler(event).catch((err: unknown) =>
          this.logger.error({ err, linkId: event.linkId }, 'MR update handler failed'),
        ),
      ),
    );
  }
}
