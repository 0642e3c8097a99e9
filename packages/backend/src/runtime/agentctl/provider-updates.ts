import {
  AppError,
  appErrorFromFailure,
  type Provider,
  providersFromWire,
  providerToWire,
  revisionFromWire,
  type UpdateOutcome,
  updateOutcomeFromWire,
  type WireProviderUpdateResultsOutput,
  type WireProvidersHeldOutput,
  type WireProviderUpdatesCall,
} from '@kandev/protocol';

// Provider updates as StreamProviderUpdates carries them: many sessions' updates per message, each
// answered with what agentctl holds for that session (its tool names included).

/**
 * Updates per StreamProviderUpdates message. An answer names every tool of every session in it: one
 * message for 10,000 sessions passed gRPC's 4 MB limit, and a message over the limit fails the whole
 * stream. 500 sessions with long tool lists stay far below it.
 */
export const PROVIDER_UPDATES_PER_MESSAGE = 500;

/** One session's provider update, as a StreamProviderUpdates call carries it. */
export interface ProviderUpdate {
  sessionId: string;
  providers: readonly Provider[];
  revision: number;
}

/** What one update of a batch left agentctl holding. */
export interface ProvidersHeld {
  outcome: UpdateOutcome;
  /** True exactly when the effective tool list changed (and list_changed went to each connection). */
  toolsChanged: boolean;
  revision: number;
  providers: Provider[];
  toolNames: string[];
}

/** One update's result in a batch: what agentctl holds after it, or why it refused this update. */
export type ProviderUpdateOutcome = { ok: true; result: ProvidersHeld } | { ok: false; error: AppError };

/** A StreamProviderUpdates batch on its agentctl's stream: each update's outcome is to come. */
export interface SentProviderUpdates {
  answer: Promise<ProviderUpdateOutcome[]>;
}

type WireBatch = NonNullable<WireProviderUpdatesCall['batch']>;

/** Sends one message's batch; resolves once it is on its stream, with agentctl's answer to come. */
export type SendBatch = (batch: WireBatch) => Promise<{ answer: Promise<WireProviderUpdateResultsOutput> }>;

function providersHeldFromWire(held: WireProvidersHeldOutput): ProvidersHeld {
  const outcome = updateOutcomeFromWire(held.outcome);
  if (outcome === undefined) throw new AppError('internal', `agentctl StreamProviderUpdates: outcome ${held.outcome}`);
  return {
    outcome,
    toolsChanged: held.tools_changed,
    revision: revisionFromWire(held.revision),
    providers: providersFromWire(held.providers),
    toolNames: [...held.tool_names],
  };
}

/** The batch answer, parsed: exactly one result per update, for that update's session, in order. */
export function providerUpdatesFromWire(
  updates: readonly ProviderUpdate[],
  response: WireProviderUpdateResultsOutput,
): ProviderUpdateOutcome[] {
  if (response.results.length !== updates.length) {
    throw new AppError(
      'internal',
      `agentctl StreamProviderUpdates: ${response.results.length} results for ${updates.length} updates`,
    );
  }
  return response.results.map((item, i) => {
    if (item.session_id !== updates[i]?.sessionId) {
      throw new AppError('internal', 'agentctl StreamProviderUpdates: results out of order');
    }
    if (item.held != null) return { ok: true, result: providersHeldFromWire(item.held) };
    return { ok: false, error: appErrorFromFailure(item.error, 'agentctl StreamProviderUpdates') };
  });
}

/**
 * One message's worth of updates on the stream (at most PROVIDER_UPDATES_PER_MESSAGE: the caller
 * slices), with its parsed answer to come.
 */
export async function sendMessage(send: SendBatch, updates: readonly ProviderUpdate[]): Promise<SentProviderUpdates> {
  if (updates.length > PROVIDER_UPDATES_PER_MESSAGE) {
    throw new AppError(
      'internal',
      `agentctl StreamProviderUpdates: ${updates.length} updates in one call, at most ${PROVIDER_UPDATES_PER_MESSAGE}`,
    );
  }
  const wire = {
    updates: updates.map(({ sessionId, providers, revision }) => ({
      session_id: sessionId,
      providers: providers.map(providerToWire),
      revision: String(revision),
    })),
  };
  const { answer } = await send(wire);
  return { answer: answer.then((response) => providerUpdatesFromWire(updates, response)) };
}
