import { AsyncLocalStorage } from 'node:async_hooks';
import { z } from 'zod';

/**
 * Who made a change: an operator's API token (its id and name, never the token), or an agent's
 * session for a change made through its MCP tools. Work the backend does by itself (an agent's turn
 * ending, a sweep, a poll) has no actor.
 */
export const ActorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('token'), id: z.string(), name: z.string() }).strict(),
  z.object({ kind: z.literal('session'), id: z.string() }).strict(),
]);
export type Actor = z.infer<typeof ActorSchema>;

const acting = new AsyncLocalStorage<Actor>();

/** The actor a token's request records: its id (`configured` for KANDEV_API_TOKEN) and name. */
export function tokenActor(token: { tokenId: string | null; name: string }): Actor {
  return { kind: 'token', id: token.tokenId ?? 'configured', name: token.name };
}

/**
 * Runs `work` on behalf of `actor`: every event appended while it runs (also by promises it starts, such
 * as a push after the commit) records that actor. Set once where a request is admitted (the route
 * policy, after the body is read: a stream's callbacks would lose it; the tool-call dispatcher), so no
 * service passes it along.
 */
export function actingAs<T>(actor: Actor, work: () => T): T {
  return acting.run(actor, work);
}

/** The actor of the work running now, if a request started it. */
export function currentActor(): Actor | undefined {
  return acting.getStore();
}
