import type { Knex } from 'knex';
import { AgentProfileStore } from '../../catalogue/agent-profiles/agent-profile-store';
import { EventStore, type NewEvent } from '../events/event-store';
import { MessageStore } from '../../catalogue/messages/message-store';
import { MrLifecycleStore } from '../../integrations/gitlab/mr-lifecycle-store';
import { PermissionGrantStore } from '../../catalogue/permission-grants/grant-store';
import { PrLifecycleStore } from '../../integrations/github/pr-lifecycle-store';
import { PromptQueueStore } from '../../runtime/prompt-queue/prompt-queue-store';
import { TaskMrStore, TaskPrStore } from '../../integrations/provider-automation/review-link-store';
import { WorkspaceCredentialStore } from '../../catalogue/credentials/workspace-credential-store';
import { ParentQuestionStore } from '../../runtime/parent-questions/parent-question-store';
import { QuestionStore } from '../../runtime/questions/question-store';
import { RepositoryStore } from '../../catalogue/repositories/repository-store';
import type { SecretBox } from '../secrets/secret-box';
import { runTransaction } from './driver/store-transaction';
import { SessionStore } from '../../runtime/sessions/store/session-store';
import type { Sql } from './sql';
import { TaskStore } from '../../catalogue/tasks/task-store';
import { WorkspaceStore } from '../../catalogue/workspaces/workspace-store';

/** Every store, bound to one connection or one transaction. */
export interface Stores {
  workspaces: WorkspaceStore;
  repositories: RepositoryStore;
  tasks: TaskStore;
  sessions: SessionStore;
  agentProfiles: AgentProfileStore;
  messages: MessageStore;
  promptQueue: PromptQueueStore;
  taskPrs: TaskPrStore;
  taskMrs: TaskMrStore;
  mrLifecycle: MrLifecycleStore;
  prLifecycle: PrLifecycleStore;
  workspaceCredentials: WorkspaceCredentialStore;
  questions: QuestionStore;
  parentQuestions: ParentQuestionStore;
  permissionGrants: PermissionGrantStore;
  events: EventStore;
}

/** What services get instead of knex: plain reads, or several store calls committed atomically. */
export interface UnitOfWork {
  read: Stores;
  transaction<T>(work: (stores: Stores) => Promise<T>): Promise<T>;
}

/** Called once events were committed, with those events. */
export type EventsCommitted = (events: readonly NewEvent[]) => void;

/** What a unit of work tells about the events it commits (the replica signals' hooks). */
export interface CommitHooks {
  /** Events written outside a transaction, each once committed. */
  committed: EventsCommitted;
  /** A transaction's statement to send after its work, before COMMIT, so that it takes effect with it. */
  beforeCommit(trx: Sql, events: readonly NewEvent[]): Knex.Raw | undefined;
  /** A transaction's events once it committed (never after a rollback). */
  afterCommit: EventsCommitted;
}

const NO_HOOKS: CommitHooks = {
  committed: () => undefined,
  beforeCommit: () => undefined,
  afterCommit: () => undefined,
};

/**
 * `secrets` seals provider tokens and agent-profile env values on write and opens them where used;
 * `appended` is told each time an event is written on `db`.
 */
export function createStores(db: Sql, secrets: SecretBox, appended: EventsCommitted = () => undefined): Stores {
  const events = new EventStore(db, (event) => appended([event]));
  return {
    workspaces: new WorkspaceStore(db),
    repositories: new RepositoryStore(db),
    tasks: new TaskStore(db),
    sessions: new SessionStore(db, events),
    agentProfiles: new AgentProfileStore(db, secrets),
    messages: new MessageStore(db, events),
    promptQueue: new PromptQueueStore(db, events),
    taskPrs: new TaskPrStore(db),
    taskMrs: new TaskMrStore(db),
    mrLifecycle: new MrLifecycleStore(db),
    prLifecycle: new PrLifecycleStore(db),
    workspaceCredentials: new WorkspaceCredentialStore(db, secrets),
    questions: new QuestionStore(db, events),
    parentQuestions: new ParentQuestionStore(db, events),
    permissionGrants: new PermissionGrantStore(db),
    events,
  };
}

/**
 * Outside a transaction an event is committed as it is written (`hooks.committed`); inside one, the
 * transaction sends `hooks.beforeCommit`'s statement after its work and `hooks.afterCommit` runs once it
 * committed (never after a rollback), so a woken stream finds the event in the table. A transaction is
 * the store's own (platform/store/driver/store-transaction.ts): on PostgreSQL it holds the event-order
 * lock from its BEGIN, and writes whose answers nobody needs are sent, not awaited.
 */
export function createUnitOfWork(db: Knex, secrets: SecretBox, hooks: CommitHooks = NO_HOOKS): UnitOfWork {
  return {
    read: createStores(db, secrets, hooks.committed),
    transaction: async (work) => {
      const appended: NewEvent[] = [];
      const result = await runTransaction(
        db,
        (sql) => work(createStores(sql, secrets, (events) => appended.push(...events))),
        (sql) => (appended.length > 0 ? hooks.beforeCommit(sql, appended) : undefined),
      );
      if (appended.length > 0) hooks.afterCommit(appended);
      return result;
    },
  };
}
