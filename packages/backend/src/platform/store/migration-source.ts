import type { Knex } from 'knex';
import * as initialSchema from './migrations/20260809-001-initial-schema';
import * as sessionRefreshState from './migrations/20261130-002-session-refresh-state';
import * as messagesAndPromptQueue from './migrations/20261130-003-messages-and-prompt-queue';
import * as providerAutomation from './migrations/20261130-004-provider-automation';
import * as questions from './migrations/20261130-005-questions';
import * as agentProfileEnv from './migrations/20261130-006-agent-profile-env';
import * as turnModel from './migrations/20261201-007-turn-model';
import * as parentQuestions from './migrations/20261201-008-parent-questions';
import * as mrLifecycle from './migrations/20261201-009-mr-lifecycle';
import * as apiTokens from './migrations/20261201-010-api-tokens';
import * as events from './migrations/20261201-011-events';
import * as permissionPolicy from './migrations/20261201-013-permission-policy';
import * as githubLifecycle from './migrations/20261201-014-github-lifecycle';
import * as leases from './migrations/20261202-015-leases';
import * as replicaWakeups from './migrations/20261202-016-replica-wakeups';
import * as messageStreamKeys from './migrations/20261204-017-message-stream-keys';
import * as permissionGrants from './migrations/20261204-018-permission-grants';
import * as sessionHistory from './migrations/20261205-019-session-history';
import * as listIndexes from './migrations/20261205-020-list-indexes';
import * as sessionAgentctlReplica from './migrations/20261205-021-session-agentctl-replica';
import * as loginLinks from './migrations/20261205-022-login-links';
import * as answerDelivery from './migrations/20261205-023-answer-delivery';
import * as tokenRoles from './migrations/20261205-025-token-roles';
import * as eventActors from './migrations/20261205-026-event-actors';
import * as retentionIndexes from './migrations/20261205-028-retention-indexes';
import * as eventWorkspaces from './migrations/20261205-029-event-workspaces';
import * as auditEntries from './migrations/20261205-030-audit-entries';

export interface Migration {
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

/** Every migration, in order. Append only; never rename or edit an applied one. */
const MIGRATIONS: readonly (readonly [name: string, migration: Migration])[] = [
  ['20260809-001-initial-schema', initialSchema],
  ['20261130-002-session-refresh-state', sessionRefreshState],
  ['20261130-003-messages-and-prompt-queue', messagesAndPromptQueue],
  ['20261130-004-provider-automation', providerAutomation],
  ['20261130-005-questions', questions],
  ['20261130-006-agent-profile-env', agentProfileEnv],
  ['20261201-007-turn-model', turnModel],
  ['20261201-008-parent-questions', parentQuestions],
  ['20261201-009-mr-lifecycle', mrLifecycle],
  ['20261201-010-api-tokens', apiTokens],
  ['20261201-011-events', events],
  ['20261201-013-permission-policy', permissionPolicy],
  ['20261201-014-github-lifecycle', githubLifecycle],
  ['20261202-015-leases', leases],
  ['20261202-016-replica-wakeups', replicaWakeups],
  ['20261204-017-message-stream-keys', messageStreamKeys],
  ['20261204-018-permission-grants', permissionGrants],
  ['20261205-019-session-history', sessionHistory],
  ['20261205-020-list-indexes', listIndexes],
  ['20261205-021-session-agentctl-replica', sessionAgentctlReplica],
  ['20261205-022-login-links', loginLinks],
  ['20261205-023-answer-delivery', answerDelivery],
  ['20261205-025-token-roles', tokenRoles],
  ['20261205-026-event-actors', eventActors],
  ['20261205-028-retention-indexes', retentionIndexes],
  ['20261205-029-event-workspaces', eventWorkspaces],
  ['20261205-030-audit-entries', auditEntries],
];

/** Migrations imported as modules (not globbed from disk), so they run the same from src/ and dist/. */
export const MIGRATION_SOURCE: Knex.MigrationSource<string> = {
  getMigrations: () => Promise.resolve(MIGRATIONS.map(([name]) => name)),
  getMigrationName: (name) => name,
  getMigration: (name) => {
    const found = MIGRATIONS.find(([candidate]) => candidate === name);
    if (found === undefined) return Promise.reject(new Error(`unknown migration ${name}`));
    return Promise.resolve(found[1]);
  },
};
