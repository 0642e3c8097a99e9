// Projects: `unit` (pure, next to the code, no network or disk), `service` (in-process: the packages'
// src/ wired with real SQLite and fakes such as a fake agentctl, no daemon started) and `integration`
// (black-box: the built daemons as real processes on 127.0.0.1, run against dist/ — `npm test` builds
// first). `containers` is the integration tests that need a container engine; `agents` runs the real
// ACP adapters the example profiles pin.
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }] };
/** Image bundles staged by scripts/build-images.mjs copy the packages: not modules for jest. */
const modulePathIgnorePatterns = ['<rootDir>/.bundle/'];
/** Tests reach the backend through its testing entry (tsconfig.test.json maps the same name). */
const moduleNameMapper = { '^@kandev/backend/testing$': '<rootDir>/packages/backend/src/testing/index.ts' };

/**
 * Service and integration tests sit in a folder per database they need: `any-db/` is about what the
 * database keeps (transactions, queues, events, restarts, what a refused request leaves) and runs on
 * SQLite and again on PostgreSQL (the -pg projects); `default-db/` starts a backend whose database is
 * not what it tests (executors, CLI, agents, HTTP hygiene, fuzzed MCP tools), on the default SQLite file
 * only; `sqlite/` is about the SQLite file itself (modes, side files, bytes on disk, WAL, backup);
 * `postgres/` needs PostgreSQL itself (several replicas on one database); `no-db/` opens no database;
 * `containers/` needs a container engine.
 */
const under = (kind, folders, suffix) => folders.map((folder) => `<rootDir>/test/${kind}/${folder}/**/*${suffix}`);
const base = { testEnvironment: 'node', transform, modulePathIgnorePatterns, moduleNameMapper };

/** Every database a test opens, and every backend it starts, is on PostgreSQL (KANDEV_TEST_DATABASE_URL). */
const onPostgres = { setupFiles: ['<rootDir>/test/helpers/postgres-project.ts'] };

/** @type {import('jest').Config} */
module.exports = {
  // Global on purpose: Jest ignores testTimeout inside a project. Real processes start within seconds;
  // the ceiling only bounds a hang on a loaded machine.
  testTimeout: 60_000,
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/packages/*/src/**/*.test.ts'] },
    {
      ...base,
      displayName: 'service',
      testMatch: under('service', ['any-db', 'default-db', 'sqlite', 'no-db'], '.test.ts'),
    },
    {
      ...base,
      displayName: 'integration',
      testMatch: under('integration', ['any-db', 'default-db', 'sqlite', 'no-db'], '.int.test.ts'),
    },
    // Run by `npm test` when KANDEV_TEST_DATABASE_URL is set, always by .ci/run (scripts/run.mjs).
    {
      ...base,
      ...onPostgres,
      displayName: 'service-pg',
      testMatch: under('service', ['any-db', 'postgres'], '.test.ts'),
    },
    {
      ...base,
      ...onPostgres,
      displayName: 'integration-pg',
      testMatch: under('integration', ['any-db', 'postgres'], '.int.test.ts'),
    },
    {
      // Need a container engine (DOCKER_HOST) and the images: scripts/container-tests.mjs runs them
      // (from `npm test` and .ci/run) or prints why it skipped them.
      ...base,
      displayName: 'containers',
      testMatch: under('integration', ['containers'], '.int.test.ts'),
    },
    {
      // The real ACP adapters pinned in docs/agent-profiles, through a real backend and agentctl against
      // model-API stand-ins (docs/agents.md, "The agent suite"):
      // scripts/agent-adapter-tests.mjs installs them (from `npm test` and .ci/run) and runs them.
      ...base,
      displayName: 'agents',
      testMatch: ['<rootDir>/test/agents/**/*.agents.test.ts'],
    },
    {
      // The web console in Debian's Chromium (playwright-core): scripts/browser-tests.mjs runs them
      // (from `npm test` and .ci/run) or prints why it skipped them.
      ...base,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.browser.test.ts'],
    },
  ],
};
