import { Router } from 'express';
import type { Executor } from './executor';

/** What the operator sees of the agentctl this backend manages. */
export function createAgentctlRoutes(executor: Executor): Router {
  const router = Router();
  router.get('/api/agentctl', (_req, res) => {
    const status = executor.status();
    res.json({
      running: status.running,
      pid: status.pid,
      grpc_address: status.grpcAddress,
      mcp_url: status.mcpBaseUrl,
    });
  });
  return router;
}
