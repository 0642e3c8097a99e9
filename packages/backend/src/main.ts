import { AuthFailureLimit } from './platform/auth-guards/auth-failure-limit';
import { createAuthMiddleware } from './platform/auth/auth-middleware';
import { type Config, ConfigError, loadConfig } from './composition/config';
import { createBackend } from './composition/create-backend';
import { secureDataDir } from './composition/data-dir';
import { openSecretsAtRest } from './composition/secrets-at-rest';
import { createAgentctlPort, createGithubPort, createGitlabPort } from './composition/production-ports';
import { connectableHost } from './platform/net/connectable-host';
import { join } from 'node:path';
import { createApp } from './platform/http/app';
import { consoleStatic } from './platform/http/console-static';
import { listen } from './platform/http/http-server';
import { metricsRoute } from './platform/http/metrics-route';
import { createLogger } from './platform/logger/logger';
import { SecretKeyError } from './platform/secrets/secret-key-file';
import { installShutdown, runShutdown, type ShutdownStep } from './composition/shutdown';
import { createDatabase, describeDatabase, dialectOf, migrateToLatest } from './platform/store/database';
import { loadBackendId } from './runtime/executors/backend-id';
import { BACKEND_ID_FILE } from './composition/data-dir';
import { checkpointAndClose, checkpointInBackground } from './platform/store/sqlite/sqlite-database';
import { prepareWorkspacesDir, WorkspacesDirError } from './runtime/task-workspaces/workspaces-dir';

function loadConfigOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`backend: ${error.message}\n`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel);
  const steps: ShutdownStep[] = []; // reverse start order: unshift as things start
  // Installed first and reading `steps` when a signal comes: a stop during start-up still stops the
  // agentctl already spawned (it would otherwise outlive the backend).
  installShutdown({ logger, timeoutMs: config.shutdownTimeoutMs, steps, exit: (code) => process.exit(code) });
  try {
    // Before the database opens: a data dir left readable by others is fixed, and said so once.
    const tightened = secureDataDir(config.dataDir);
    if (tightened.length > 0) {
      logger.warn({ paths: tightened }, 'tightened data dir permissions: group or other had access');
    }
    prepareWorkspacesDir(config.workspaces.dir);
    const db = createDatabase(config.dataDir, config.databaseUrl);
    steps.unshift({ name: 'database', run: () => checkpointAndClose(db) });
    const applied = await migrateToLatest(db);
    const database = describeDatabase(config.databaseUrl); // never the password
    logger.info({ dataDir: config.dataDir, database, applied }, 'database ready');
    const secrets = await openSecretsAtRest(config, db, logger);
    // After the start-up sealing and its truncating checkpoint: from here on, commits never checkpoint.
    const checkpoints = await checkpointInBackground(db, logger.child({ component: 'database' }));
    if (checkpoints !== undefined) steps.unshift({ name: 'checkpoints', run: () => checkpoints.stop() });

    // On a database replicas share, this replica's local agentctl is its own: its endpoint says so.
    // On a database replicas share, this backend's local agentctl is its own, named by the data dir's
    // backend id: stable across restarts, so a backend restarted on its data dir keeps its sessions.
    const localHome = dialectOf(db) === 'postgres' ? loadBackendId(join(config.dataDir, BACKEND_ID_FILE)) : undefined;
    const agentctl = createAgentctlPort(config, logger, localHome);
    steps.unshift({ name: 'agentctl', run: () => agentctl.executors.stop() });
    steps.unshift({ name: 'agentctl clients', run: () => agentctl.clients.closeAll() });
    const backend = createBackend(config, {
      logger,
      db,
      localHome,
      clock: () => new Date(),
      agentctl,
      gitlab: createGitlabPort(),
      github: createGithubPort(config.githubApiUrl),
      secrets,
    });
    steps.unshift({ name: 'services', run: () => backend.stop() }); // before agentctl stops and the db closes
    // Executors recovered (an executor that cannot recover is logged; its sessions fail at reconcile),
    // sessions reconciled with agentctl: all before serving.
    await backend.start();
    // The token file's path goes in the ready line; the token itself is never printed or logged.
    const apiTokenFile = await backend.tokens.ensureAdminToken(config.dataDir);
    const app = createApp(logger.child({ component: 'http' }), backend.routers, {
      access: config.http,
      auth: createAuthMiddleware(backend.tokens, config.http.allowedOrigins),
      authFailureLimit: new AuthFailureLimit(config.http.authFailureLimit).middleware(),
      policy: backend.policy,
      metrics: metricsRoute(backend.metrics.registry, logger),
      requestMetrics: backend.metrics.httpRequests,
      readiness: backend.readiness,
      // The console's build output: beside this package in the workspace, inside it in the image bundle.
      console: consoleStatic([join(__dirname, '../../console/dist'), join(__dirname, '../console')]),
    });
    const http = await listen(app, config.http.host, config.http.port, config.http.timeouts);
    // Open event streams never end by themselves: ended first, so the server can close.
    steps.unshift({
      name: 'http',
      run: () => {
        backend.eventStreams.closeAll();
        return http.close();
      },
    });

    const url = `http://${connectableHost(config.http.host)}:${http.port}`;
    const status = agentctl.executors.status();
    const ready = { pid: status.pid, grpcAddress: status.grpcAddress, mcpUrl: status.mcpBaseUrl };
    process.stdout.write(
      `${JSON.stringify({ event: 'ready', httpPort: http.port, url, apiTokenFile, agentctl: ready })}\n`,
    );
    logger.info({ url }, 'backend listening');
    backend.serve();
  } catch (err) {
    // A key that does not fit the stored secrets is an operator's problem: its message, no stack.
    const operatorError = err instanceof SecretKeyError || err instanceof WorkspacesDirError;
    if (operatorError) logger.fatal(`backend failed to start: ${err.message}`);
    else logger.fatal({ err }, 'backend failed to start');
    await runShutdown(logger, steps);
    process.exit(operatorError ? 2 : 1);
  }
}

void main();
