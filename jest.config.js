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

/** Integration tests that run containers (file name prefixes under test/integration/). */
const CONTAINER_TESTS = ['conformance-docker', 'executor-docker', 'compose-'];

/**
 * Tests about the SQLite file itself (its modes and side files, bytes on disk, SQLite's lock): they
 * stay out of the -pg projects (file names under test/). Where such a test states a property that also
 * matters on PostgreSQL, a test in the -pg run states it there (noted per entry).
 */
const SQLITE_FILE_TESTS = [
  // The database file and its journal/WAL files are 0600 (no file on PostgreSQL; the data dir's other
  // files keep their modes in both runs: data-dir-modes is in this list only for its SQLite files).
  'service/data-dir-files',
  'integration/data-dir-modes',
  // WAL journal files and checkpoints; the online backup and restore of the SQLite file (on PostgreSQL
  // the admin command refuses: its unit tests cover that).
  'service/sqlite-wal',
  'integration/sqlite-backup',
];

/**
 * agentctl alone (with a hand-made backend or none): no backend, so no database; the -pg run would
 * repeat them unchanged.
 */
const NO_DATABASE_TESTS = [
  'integration/agentctl-agents',
  'integration/agentctl-grpc',
  'integration/agentctl-mcp',
  'integration/agentctl-metrics',
  'integration/agentctl-process',
  'integration/agentctl-provider-stream',
  'service/provider-update-stream',
  'integration/agentctl-revisions',
  'integration/fuzz-grpc',
  'integration/test-agent',
];

/** Tests that need PostgreSQL itself (several backend replicas on one database): only in the -pg projects. */
const POSTGRES_ONLY_TESTS = ['integration/replicas-', 'service/replica-wakeups'];

/** The same files as `service` and `integration`, with every database on PostgreSQL (KANDEV_TEST_DATABASE_URL). */
const postgres = (project) => ({
  ...project,
  displayName: `${project.displayName}-pg`,
  setupFiles: ['<rootDir>/test/helpers/postgres-project.ts'],
  testPathIgnorePatterns: [
    ...(project.testPathIgnorePatterns ?? []).filter((pattern) => !POSTGRES_ONLY_TESTS.includes(pattern)),
    ...SQLITE_FILE_TESTS,
    ...NO_DATABASE_TESTS,
  ],
});

const service = {
  displayName: 'service',
  testEnvironment: 'node',
  transform,
  modulePathIgnorePatterns,
  moduleNameMapper,
  testMatch: ['<rootDir>/test/service/**/*.test.ts'],
  testPathIgnorePatterns: POSTGRES_ONLY_TESTS,
};

const integration = {
  displayName: 'integration',
  testEnvironment: 'node',
  transform,
  modulePathIgnorePatterns,
  moduleNameMapper,
  testMatch: ['<rootDir>/test/integration/**/*.int.test.ts'],
  testPathIgnorePatterns: [...CONTAINER_TESTS, ...POSTGRES_ONLY_TESTS],
};

/** @type {import('jest').Config} */
module.exports = {
  // Global on purpose: Jest ignores testTimeout inside a project. Real processes start within seconds;
  // the ceiling only bounds a hang on a loaded machine.
  testTimeout: 60_000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      modulePathIgnorePatterns,
      moduleNameMapper,
      testMatch: ['<rootDir>/packages/*/src/**/*.test.ts'],
    },
    service,
    integration,
    // Run by `npm test` when KANDEV_TEST_DATABASE_URL is set, always by .ci/run (scripts/run.mjs).
    postgres(service),
    postgres(integration),
    {
      // Need a container engine (DOCKER_HOST) and the images: scripts/container-tests.mjs runs them
      // (from `npm test` and .ci/run) or prints why it skipped them.
      displayName: 'containers',
      testEnvironment: 'node',
      transform,
      modulePathIgnorePatterns,
      moduleNameMapper,
      testMatch: CONTAINER_TESTS.map((pattern) => `<rootDir>/test/integration/${pattern}*.int.test.ts`),
    },
    {
      // The real ACP adapters pinned in docs/agent-profiles, through a real backend and agentctl against
      // model-API stand-ins (docs/agents.md, "The agent suite"):
      // scripts/agent-adapter-tests.mjs installs them (from `npm test` and .ci/run) and runs them.
      displayName: 'agents',
      testEnvironment: 'node',
      transform,
      modulePathIgnorePatterns,
      moduleNameMapper,
      testMatch: ['<rootDir>/test/agents/**/*.agents.test.ts'],
    },
    {
      // The web console in Debian's Chromium (playwright-core): scripts/browser-tests.mjs runs them
      // (from `npm test` and .ci/run) or prints why it skipped them.
      displayName: 'browser',
      testEnvironment: 'node',
      transform,
      modulePathIgnorePatterns,
      moduleNameMapper,
      testMatch: ['<rootDir>/test/browser/**/*.browser.test.ts'],
    },
  ],
};
