// setupFiles of the service-pg and integration-pg jest projects: every database a test opens or a
// backend it starts uses is then a PostgreSQL database (the testing entry's test database).
process.env.KANDEV_TEST_DATABASE = 'postgres';
