import { Router } from 'express';
import { reachOf } from '../agentctl/agentctl-reachability';
import type { ExecutorRegistry } from './executor-registry';

/** What the operator sees of the agentctls this backend manages, with whether each answers now. */
export function createAgentctlRoutes(
  registry: ExecutorRegistry,
  isReachable: (grpcAddress: string) => boolean,
): Router {
  const router = Router();
  const describe = (name: string) => {
    const backend = registry.backend(name);
    const status = backend.status();
    const reach = reachOf(backend, isReachable);
    return {
      running: reach.running,
      reachable: reach.reachable,
      pid: status.pid,
      grpc_address: status.grpcAddress,
      mcp_url: status.mcpBaseUrl,
    };
  };
  // The default executor's agentctl (the local one unless configured otherwise), then every executor's.
  router.get('/api/agentctl', (_req, res) => {
    const executors = registry.names().map((name) => ({ name, kind: registry.backend(name).kind, ...describe(name) }));
    res.json({ ...describe(registry.defaultExecutor), executors });
  });
  // Every configured executor: what a launch may name in {executor}, and the default.
  router.get('/api/executors', (_req, res) => {
    const items = registry.names().map((name) => {
      const backend = registry.backend(name);
      const reach = reachOf(backend, isReachable);
      return {
        name,
        kind: backend.kind,
        running: reach.running,
        reachable: reach.reachable,
        agentctls: backend.endpoints().length,
      };
    });
    res.json({ default: registry.defaultExecutor, items });
  });
  return router;
}
