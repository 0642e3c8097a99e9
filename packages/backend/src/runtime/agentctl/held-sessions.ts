import type { RuntimeSessionState } from '@kandev/protocol';
import type { AgentctlApi } from './agentctl-client';

/**
 * What each agentctl held when a pass over many sessions (the boot reconcile, the repair on attach)
 * first asked it: one ListSessions per agentctl instead of one GetSession per session, so a pass over
 * 10,000 sessions costs a few paged calls. A failed ListSessions fails every lookup of that agentctl
 * the way its GetSession would have failed.
 */
export class HeldSessions {
  private readonly lists = new Map<AgentctlApi, Promise<Map<string, RuntimeSessionState>>>();

  /** The session as `client` held it at its first lookup in this pass; undefined when it held none. */
  async lookup(client: AgentctlApi, sessionId: string): Promise<RuntimeSessionState | undefined> {
    let list = this.lists.get(client);
    if (list === undefined) {
      list = client.listSessions().then((all) => new Map(all.map((state) => [state.config.sessionId, state])));
      this.lists.set(client, list);
    }
    return (await list).get(sessionId);
  }
}
