import {
  AppError,
  appErrorFromFailure,
  isAppError,
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

/** `items` in slices of at most one message's worth (`perMessage`), in order. */
export function inMessages<T>(items: readonly T[], perMessage = PROVIDER_UPDATES_PER_MESSAGE): T[][] {
  const messages: T[][] = [];
  for (let i = 0; i < items.length; i += perMessage) messages.push(items.slice(i, i + perMessage));
  return messages;
}

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

function toWire(updates: readonly ProviderUpdate[]): WireBatch {
  return {
    updates: updates.map(({ sessionId, providers, revision }) => ({
      session_id: sessionId,
      providers: providers.map(providerToWire),
      revision: String(revision),
    })),
  };
}

/** One message's answer: its updates' outcomes, or the error it got instead, for each of its `size` updates. */
type MessageAnswer = { outcomes: ProviderUpdateOutcome[] } | { error: AppError; size: number };

/**
 * Sends `updates` in messages of at most `perMessage`, in order, and joins their answers: one outcome
 * per update, in order. A message that got no answer fails its own updates with its error; the answer
 * as a whole fails only when no message got one, as a single call would.
 */
export async function sendInMessages(
  send: SendBatch,
  updates: readonly ProviderUpdate[],
  perMessage = PROVIDER_UPDATES_PER_MESSAGE,
): Promise<SentProviderUpdates> {
  const messages = inMessages(updates, perMessage);
  // Each answer stays wrapped: an async function resolving a promise would wait for it.
  const sent = await Promise.all(
    messages.map(async (message): Promise<{ answer: Promise<MessageAnswer> }> => {
      const { answer } = await send(toWire(message));
      return {
        answer: answer
          .then((response): MessageAnswer => ({ outcomes: providerUpdatesFromWire(message, response) }))
          .catch((error: unknown): MessageAnswer => ({ error: asAppError(error), size: message.length })),
      };
    }),
  );
  return { answer: Promise.all(sent.map(({ answer }) => answer)).then(joined) };
}

function asAppError(error: unknown): AppError {
  return isAppError(error) ? error : new AppError('internal', `agentctl StreamProviderUpdates: ${String(error)}`);
}

function joined(answers: readonly MessageAnswer[]): ProviderUpdateOutcome[] {
  const [first] = answers;
  if (first !== undefined && 'error' in first && answers.every((answer) => 'error' in answer)) throw first.error;
  return answers.flatMap((answer) =>
    'error' in answer
      ? Array.from({ length: answer.size }, (): ProviderUpdateOutcome => ({ ok: false, error: answer.error }))
      : answer.outcomes,
  );
}
