import {
  isAppError,
  providerToWire,
  updateOutcomeToWire,
  type WireProviderUpdateBatchOutput,
  type WireProviderUpdateResult,
  type WireProviderUpdateResults,
} from '@kandev/protocol';
import type { AgentctlMetrics } from '../metrics/agentctl-metrics';
import type { SessionRegistry } from '../sessions/session-registry';
import { parseProviderUpdate } from './request-parsers';

type Metrics = Pick<AgentctlMetrics, 'updateProviders'>;

/**
 * One StreamProviderUpdates call: every update applied by the registry in order (counted and timed),
 * each answered with only what the backend records (ProvidersHeld). A refused update (unknown session,
 * bad revision or input) is that update's result and the rest still apply; anything else is a bug and
 * fails the call.
 */
export async function updateBatch(
  registry: SessionRegistry,
  request: WireProviderUpdateBatchOutput,
  metrics?: Metrics,
): Promise<WireProviderUpdateResults> {
  const results: WireProviderUpdateResult[] = [];
  for (const update of request.updates) {
    try {
      const run = () => registry.updateProviders(parseProviderUpdate(update));
      const { outcome, toolsChanged, session } = await (metrics?.updateProviders(run) ?? run());
      const held = {
        outcome: updateOutcomeToWire(outcome),
        tools_changed: toolsChanged,
        revision: String(session.config.revision),
        providers: session.config.providers.map(providerToWire),
        tool_names: [...session.toolNames],
      };
      results.push({ session_id: update.session_id, held });
    } catch (error) {
      if (!isAppError(error)) throw error;
      results.push({ session_id: update.session_id, error: { code: error.code, message: error.message } });
    }
  }
  return { results };
}
