// The environment of a backend started by a script with its own local agentctl on 127.0.0.1: every port
// chosen by the OS, a data dir of the script's, warnings and errors only. `extra` adds or overrides.
export function embeddedBackendEnv(dataDir, extra = {}) {
  return {
    PATH: process.env.PATH ?? '',
    KANDEV_HTTP_PORT: '0',
    KANDEV_AGENTCTL_GRPC_PORT: '0',
    KANDEV_AGENTCTL_MCP_PORT: '0',
    KANDEV_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...extra,
  };
}
