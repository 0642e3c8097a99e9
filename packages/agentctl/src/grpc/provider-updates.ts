import {
  isAppError,
  providerToWire,
  sessionStateToWire,
  updateOutcomeToWire,
  type WireUpdateProvidersBatchRequestOutput,
  type WireUpdateProvidersBatchResponse,
  type WireUpdateProvidersBatchResult,
  type WireUpdateProvidersRequestOutput,
  type WireUpdateProvidersResponse,
} from '@kandev/protocol';
import type { AgentctlMetrics } from '../metrics/agentctl-metrics';
import type { SessionRegistry } from '../sessions/session-registry';
import { parseProviderUpdate } from './request-parsers';

type Metrics = Pick<AgentctlMetrics, 'updateProviders'>;

/** One update applied by the registry, counted and timed. */
function apply(registry: SessionRegistry, request: WireUpdateProvidersRequestOutput, metrics?: Metrics) {
  const run = () => registry.updateProviders(parseProviderUpdate(request));
  return metrics?.updateProviders(run) ?? run();
}

/** UpdateProviders: one session's provider set to a new revision. */
export async function updateOne(
  registry: SessionRegistry,
  request: WireUpdateProvidersRequestOutput,
  metrics?: Metrics,
): Promise<WireUpdateProvidersResponse> {
  const result = await apply(registry, request, metrics);
  return {
    outcome: updateOutcomeToWire(result.outcome),
    tools_changed: result.toolsChanged,
    session: sessionStateToWire(result.session),
  };
}

/**
 * UpdateProvidersBatch: every update applied as UpdateProviders would, in order, each answered with
 * only what the backend records (ProvidersHeld). A refused update
 * (unknown session, bad revision or input) is that update's result and the rest still apply; anything
 * else is a bug and fails the call.
 */
export async function updateBatch(
  registry: SessionRegistry,
  request: WireUpdateProvidersBatchRequestOutput,
  metrics?: Metrics,
): Promise<WireUpdateProvidersBatchResponse> {
  const results: WireUpdateProvidersBatchResult[] = [];
  for (const update of request.updates) {
    try {
      const { outcome, toolsChanged, session } = await apply(registry, update, metrics);
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
