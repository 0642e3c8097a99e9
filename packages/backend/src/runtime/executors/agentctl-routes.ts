import { Router } from 'express';
import { z } from 'zod';
import { reachOf } from '../agentctl/agentctl-reachability';
import { EXECUTOR_KINDS } from '../agentctl/executor';
import type { ExecutorRegistry } from './executor-registry';

const ExecutorKindSchema = z.enum([...EXECUTOR_KINDS, 'kubernetes']);

const AgentctlStatusSchema = z
  .object({
    running: z.boolean(),
    reachable: z.boolean().describe('whether the agentctl answers now (probed every second)'),
    pid: z.number().int().nullable(),
    grpc_address: z.string().nullable(),
    mcp_url: z.string().nullable(),
  })
  .strict();

/** GET /api/agentctl */
export const AgentctlsViewSchema = AgentctlStatusSchema.extend({
  executors: z.array(AgentctlStatusSchema.extend({ name: z.string(), kind: ExecutorKindSchema }).strict()),
})
  .strict()
  .meta({ id: 'Agentctls' });

/** GET /api/executors */
export const ExecutorsViewSchema = z
  .object({
    default: z.string().describe('the executor a launch uses when it names none'),
    items: z.array(
      z
        .object({
          name: z.string(),
          kind: ExecutorKindSchema,
          running: z.boolean(),
          reachable: z.boolean(),
          agentctls: z.number().int().describe('how many agentctls it runs now'),
        })
        .strict(),
    ),
  })
  .strict()
  .meta({ id: 'Executors' });

/** What the operator sees of the agentctls this backend manages, with whether each answers now. */
export function createAgentctlRoutes(
  registry: ExecutorRegistry,
  isReachable: (grpcAddress: string) => boolean,
): Router {
  const router = Router();
  const describe = (name: string): z.output<typeof AgentctlStatusSchema> => {
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
    const view: z.output<typeof AgentctlsViewSchema> = { ...describe(registry.defaultExecutor), executors };
    res.json(view);
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
    const view: z.output<typeof ExecutorsViewSchema> = { default: registry.defaultExecutor, items };
    res.json(view);
  });
  return router;
}
