// The backend's entry for tests, `@kandev/backend/testing` (tsconfig.test.json `paths`, jest's
// moduleNameMapper): the in-process backend wired by the production composition root with test ports,
// the fake agentctl and harnesses, test databases, row builders, and the backend modules service and
// integration tests drive directly. Tests import the backend only through here, so moving a file
// inside src/ changes this list, not the tests. Re-exports only; not part of the production build.

// The in-process backend, its fakes and harnesses
export { backendRoutes, fillRoute, routeParams, type RouteTemplate } from './harness/backend-routes';
export { FakeAgentctl } from './harness/fake-agentctl';
export { ENDPOINT, fakeAgentctlPort } from './harness/fake-agentctl-port';
export { createInProcessBackend, type InProcessBackendOptions, recordKicks } from './harness/in-process-backend';
export { TEST_SECRETS } from './harness/test-secrets';
export {
  createToolHarness,
  expectRefusedUnchanged,
  PROVIDER_SET_QUERY,
  refusal,
  type ToolHarness,
} from './harness/tool-harness';

// Test databases: SQLite by default, PostgreSQL in the -pg projects
export { databaseHolds, fileHolds } from './database/database-bytes';
export { type DatabaseDigest, databaseDigester } from './database/database-digest';
export {
  insertable,
  jsonColumn,
  jsonColumnText,
  onPostgres,
  openTestDatabase,
  testDatabaseEnv,
  testDatabaseName,
  testDatabaseUrl,
} from './database/test-database';

// Row builders
export { repositoryRow } from './rows/repository-rows';
export { launchConfigFor, sessionRow } from './rows/session-rows';
export { taskRow } from './rows/task-rows';

// The backend's own platform modules that tests drive directly
export { ROUTE_RIGHTS } from '../composition/access/route-rights';
export { type RouteRule } from '../platform/access/route-policy';
export { type Role, ROLES } from '../platform/access/principal';
export { ApiTokenService, LAST_USED_PRECISION_MS } from '../platform/auth/api-token-service';
export { createAuthMiddleware } from '../platform/auth/auth-middleware';
export { LOGIN_LINK_TTL_MS, LoginLinks } from '../platform/auth/login-links';
export { TOKEN_CHECK_TTL_MS } from '../platform/auth/token-check-cache';
export { attachLeaseName, type LeaseTiming } from '../platform/cluster/attach-lease';
export { type ReplicasView } from '../platform/cluster/lease-routes';
export { claim, holderAt, type Lease, renew } from '../platform/cluster/lease-rules';
export { LeaseStore } from '../platform/cluster/lease-store';
export { DatabaseLeases, withClaim, type WorkClaims } from '../platform/cluster/leases';
export { KeptConnection } from '../platform/cluster/postgres/pg-kept-connection';
export { listenerConnectionOf, PgReplicaSignals } from '../platform/cluster/postgres/pg-replica-signals';
export { type Replicas } from '../platform/cluster/replicas';
export { SingleProcess } from '../platform/cluster/single-process';
export { EVENT_LOG_DEFAULTS, type EventLogConfig } from '../platform/events/event-log-config';
export { pruneAudit, readAudit } from '../platform/events/audit-log';
export { EventStore, type NewEvent } from '../platform/events/event-store';
export { type EventFilter, type StoredEvent } from '../platform/events/event-types';
export { openPrivateAppend } from '../platform/files/private-files';
export { createApp } from '../platform/http/app';
export { listen } from '../platform/http/http-server';
export { metricsRoute } from '../platform/http/metrics-route';
export { createLogger } from '../platform/logger/logger';
export { isVerbOperationId, openApiPath, type RouteDoc } from '../platform/openapi/openapi';
export { REST_ERROR_CODES } from '../platform/http/error-codes';
export { type BackoffPolicy } from '../platform/retry/retry-backoff';
export { SecretBox, SecretOpenError } from '../platform/secrets/secret-box';
export { SecretKey } from '../platform/secrets/secret-key';
export { dataDirSecretKey, SecretKeyError, writeNewSecretKeyFile } from '../platform/secrets/secret-key-file';
export { sealStoredSecrets } from '../platform/secrets/stored-secrets';
export { isUniqueViolation } from '../platform/store/constraint-errors';
export {
  createDatabase,
  type Database,
  DATABASE_FILE_NAME,
  MIGRATION_LOCK,
  migrateToLatest,
} from '../platform/store/database';
export { isDatabaseWritable } from '../platform/store/database-probe';
export { underEventOrder } from '../platform/store/event-order-lock';
export { MIGRATION_SOURCE } from '../platform/store/migration-source';
export { EVENT_ORDER_LOCK, runTransaction } from '../platform/store/driver/store-transaction';
export { createPostgresDatabase } from '../platform/store/driver/postgres-database';
export { startBackgroundCheckpoints } from '../platform/store/sqlite/sqlite-checkpoints';
export { checkpointAndClose, checkpointSqlite, SQLITE_BUSY_TIMEOUT_MS } from '../platform/store/sqlite/sqlite-database';
export { createUnitOfWork, type UnitOfWork } from '../platform/store/unit-of-work';

// The backend's own catalogue modules that tests drive directly
export { CreateAgentProfileBodySchema } from '../catalogue/agent-profiles/agent-profile';
export { AgentProfileService } from '../catalogue/agent-profiles/agent-profile-service';
export { createMessageRoutes } from '../catalogue/messages/message-routes';
export { type Repository } from '../catalogue/repositories/repository';
export { type Task } from '../catalogue/tasks/task';
export { createTaskRoutes } from '../catalogue/tasks/task-routes';

// The backend's own runtime modules that tests drive directly
export { AgentctlClient, type ProviderUpdate } from '../runtime/agentctl/agentctl-client';
export { OwnedAttach } from '../runtime/agentctl/attach-ownership';
export { type AttachFollower } from '../runtime/agentctl/attach-pool';
export { type AgentctlEndpoint } from '../runtime/agentctl/executor';
export { AgentctlLossHandler } from '../runtime/agentctl-repair/agentctl-loss';
export { replicaGoneReason, ReplicaLocalSessions } from '../runtime/agentctl-repair/replica-local-sessions';
export { SessionLanes } from '../runtime/sessions/session-lanes';
export { pruneEndedSessionDetails } from '../runtime/sessions/store/session-history';
export { loadBackendId } from '../runtime/executors/backend-id';
export { DockerTokenFiles } from '../runtime/executors/docker/docker-token-files';
export { type V1Pod, type V1Secret } from '../runtime/executors/kubernetes/kubernetes-api';
export { readAgentctlState } from '../runtime/executors/local/agentctl-state-file';
export { type AskParentQuestionArgs, type ParentQuestion } from '../runtime/parent-questions/parent-question';
export { createParentQuestionRoutes } from '../runtime/parent-questions/parent-question-routes';
export { type DrainGate } from '../runtime/prompt-queue/drain-gate';
export { newQueuedPrompt, type QueuedPrompt } from '../runtime/prompt-queue/queued-prompt';
export { recordTaskPrompt } from '../runtime/prompt-queue/task-prompt';
export { SessionReconciler } from '../runtime/provider-refresh/provider-reconciler';
export { type Question } from '../runtime/questions/question';
export { createQuestionRoutes } from '../runtime/questions/question-routes';
export { type StartTimer } from '../runtime/questions/question-service';
export { createPromptRoutes } from '../runtime/session-control/prompt-routes';
export { type LaunchConfigView, toLaunchConfigView } from '../runtime/session-control/session-view';
export { prepareSessionWorkspace } from '../runtime/session-control/session-workspace';
export { type AgentSession, type AgentSessionState } from '../runtime/sessions/agent-session';
export { createCheckout } from '../runtime/task-workspaces/git-checkout';
export { type TaskWorkspacesConfig } from '../runtime/task-workspaces/task-workspaces';
export { NEVER_STARTED_REASON } from '../runtime/turns/boot-reconcile';
export { StartSweeper } from '../runtime/turns/start-sweeper';
export { TurnSweeper } from '../runtime/turns/turn-sweeper';

// The backend's own integrations modules that tests drive directly
export { GitlabClient, GitlabError, parseRetryAfter } from '../integrations/gitlab/gitlab-client';
export { createMrLifecycleRoutes } from '../integrations/gitlab/mr-lifecycle-routes';
export { type AutomationPatch } from '../integrations/provider-automation/review-link';

// The backend's own agent-api modules that tests drive directly
export { AttachClient } from '../agent-api/tool-calls/attach-client';
export { runAdmittedCall } from '../agent-api/tool-calls/tool-call-dispatcher';
export { type ToolCallContext, type ToolReply } from '../agent-api/tool-calls/tool-handler';

// The backend's own composition modules that tests drive directly
export { openApiDocument, ROUTE_GROUPS } from '../composition/api-catalogue';
export { type BackendConfig, type GithubPort, type GitlabPort } from '../composition/backend-ports';
export { rotateSecretKey } from '../composition/commands/rotate-secret-key';
export { loadConfig } from '../composition/config';
export { type Backend } from '../composition/create-backend';
export { AGENTCTL_STATE_FILE, DOCKER_TOKEN_DIR, secureDataDir } from '../composition/data-dir';
export { createGithubPort, createGitlabPort } from '../composition/production-ports';
export { openSecretsAtRest } from '../composition/secrets-at-rest';
