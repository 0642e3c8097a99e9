import { Router } from 'express';
import type { ExecutorRegistry } from './executor-registry';

/** What the operator sees of the agentctls this backend manages. */
export function createAgentctlRoutes(registry: ExecutorRegistry): Router {
  const router = Router();
  // The default executor's agentctl (the local one unless configured otherwise).
  router.get('/api/agentctl', (_req, res) => {
    const status = registry.status();
    res.json({
      running: status.running,
      pid: status.pid,
      grpc_address: status.grpcAddress,
      mcp_url: status.mcpBaseUrl,
    });
  });
  // Every configured executor: what a launch may name in {executor}, and the default.
  router.get('/api/executors', (_req, res) => {
    const items = Object.entries(registry.statusByExecutor()).map(([name, status]) => ({
      name,
      kind: status.kind,
      running: status.running,
      agentctls: registry.backend(name).endpoints().length,
    }));
    res.json({ default: registry.defaultExecutor, items });
  });
  return router;
}
