import type { Knex } from 'knex';
import type { Sql } from '../store/sql';
import type { EventWakeups } from '../events/event-notifier';
import type { NewEvent } from '../events/event-types';
import type { CommitHooks } from '../store/unit-of-work';

// Wake-ups across the backend replicas sharing one database (docs/replicas.md). A signal
// is only a nudge after a commit: whoever is woken re-reads the database, which stays the one source of
// truth (the compare-and-set decides, the signal only says "look again"). So a lost signal may cost
// time but never a decision, and every channel that can lose signals (a dropped PostgreSQL listener)
// tells its subscribers to resync: re-read everything they wait for.

/**
 * What can be signalled: events were committed; a question or a parent question changed (its id); a
 * session on a replica's own local agentctl has work only that replica can do (its id); an API token
 * was revoked (its id: every replica ends the event streams it opened).
 */
export const SIGNAL_NAMES = ['events', 'question', 'parent_question', 'session', 'token_revoked'] as const;
export type SignalName = (typeof SIGNAL_NAMES)[number];

/** One signal with its payload ('' when it has none). */
export interface Signal {
  name: SignalName;
  payload: string;
}

export interface SignalListener {
  /** A signal with its payload ('' when it has none). */
  signal(payload: string): void;
  /** Signals may have been missed (a listener connection dropped and came back): re-read what you wait for. */
  resync(): void;
}

/** Publish after a commit, subscribe to what every replica publishes (this one included). */
export interface ReplicaSignals {
  /** Delivered to this replica's listeners at once and to every other replica's soon after. */
  publish(name: SignalName, payload?: string): void;
  /**
   * The statement that tells the other replicas of `signals`, for the transaction that commits them to
   * send before its COMMIT (PostgreSQL delivers a NOTIFY at COMMIT and drops it on rollback); undefined
   * when there is no one else to tell. Once committed, `deliver` tells this replica's listeners.
   */
  notifyStatement(db: Sql, signals: readonly Signal[]): Knex.Raw | undefined;
  /** To this replica's listeners only, at once. */
  deliver(signals: readonly Signal[]): void;
  subscribe(name: SignalName, listener: SignalListener): () => void;
  /** Listening on every replica's signals (PostgreSQL: the LISTEN is in place). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Which replicas are running now: a question held by a replica that is gone can reach nobody. */
export interface ReplicaPresence {
  readonly replicaId: string;
  isAlive(replicaId: string): Promise<boolean>;
  /** The replica ids alive now (this one included). */
  alive(): Promise<string[]>;
}

/** Delivers to the local listeners of one signal; a throwing listener never stops the others. */
export class SignalListeners {
  private readonly byName = new Map<SignalName, Set<SignalListener>>();

  add(name: SignalName, listener: SignalListener): () => void {
    const set = this.byName.get(name) ?? new Set<SignalListener>();
    set.add(listener);
    this.byName.set(name, set);
    return () => {
      set.delete(listener);
    };
  }

  deliver(name: SignalName, payload: string, onError: (error: unknown) => void): void {
    for (const listener of [...(this.byName.get(name) ?? [])]) {
      try {
        listener.signal(payload);
      } catch (err) {
        onError(err);
      }
    }
  }

  resyncAll(onError: (error: unknown) => void): void {
    for (const set of this.byName.values()) {
      for (const listener of [...set]) {
        try {
          listener.resync();
        } catch (err) {
          onError(err);
        }
      }
    }
  }

  count(name: SignalName): number {
    return this.byName.get(name)?.size ?? 0;
  }
}

/** One process (SQLite): signals are delivered in process, synchronously; only this replica is alive. */
export class InProcessReplicaSignals implements ReplicaSignals, ReplicaPresence {
  private readonly listeners = new SignalListeners();

  constructor(
    readonly replicaId: string,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  publish(name: SignalName, payload = ''): void {
    this.deliver([{ name, payload }]);
  }

  notifyStatement(): undefined {
    return undefined;
  }

  deliver(signals: readonly Signal[]): void {
    for (const { name, payload } of signals) this.listeners.deliver(name, payload, this.onError);
  }

  subscribe(name: SignalName, listener: SignalListener): () => void {
    return this.listeners.add(name, listener);
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  isAlive(replicaId: string): Promise<boolean> {
    return Promise.resolve(replicaId === this.replicaId);
  }

  alive(): Promise<string[]> {
    return Promise.resolve([this.replicaId]);
  }

  listenerCount(name: SignalName): number {
    return this.listeners.count(name);
  }
}

/**
 * The signals a committed unit of work owes (pure): 'events' once, and each question and parent question
 * whose event it appended, by id. Every state move of both writes its event in the same transaction, so
 * the event log is where the signals come from, and a new write path gets its signal for free.
 */
export function signalsOfEvents(events: readonly NewEvent[]): Signal[] {
  if (events.length === 0) return [];
  const signals = new Map<string, Signal>();
  signals.set('events:', { name: 'events', payload: '' });
  for (const event of events) {
    const name: SignalName | undefined = event.type.startsWith('question.')
      ? 'question'
      : event.type.startsWith('parent_question.')
        ? 'parent_question'
        : undefined;
    const question = event.data.question;
    const id =
      typeof question === 'object' && question !== null && 'id' in question && typeof question.id === 'string'
        ? question.id
        : undefined;
    if (name !== undefined && id !== undefined) signals.set(`${name}:${id}`, { name, payload: id });
  }
  return [...signals.values()];
}

/**
 * What a unit of work tells the replicas about the events it commits: in a transaction, the other
 * replicas' signals go with its COMMIT and this replica's listeners are called after it; events written
 * outside one are published as they commit.
 */
export function commitHooksOver(signals: Pick<ReplicaSignals, 'publish' | 'notifyStatement' | 'deliver'>): CommitHooks {
  return {
    committed: (events) => {
      for (const { name, payload } of signalsOfEvents(events)) signals.publish(name, payload);
    },
    beforeCommit: (trx, events) => signals.notifyStatement(trx, signalsOfEvents(events)),
    afterCommit: (events) => signals.deliver(signalsOfEvents(events)),
  };
}

/** The event streams' wake-ups over the signals: any replica's commit wakes every stream; a resync too. */
export function eventWakeupsOver(signals: ReplicaSignals): EventWakeups {
  return {
    wake: () => signals.publish('events'),
    subscribe: (listener) => signals.subscribe('events', { signal: listener, resync: listener }),
  };
}
