// setupFiles of the service-pg and integration-pg jest projects: every database a test opens or a
// backend it starts uses is then a PostgreSQL database (packages/backend/src/testing/database/test-database.ts).
process.env.KANDEV_TEST_DATABASE = 'postgres';
