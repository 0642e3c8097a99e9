import { AgentProfiles } from './profiles';
import { ApiTokens } from './tokens';

/** Agent profiles and API tokens: what the operator configures once and revisits rarely. */
export function Settings() {
  return (
    <section>
      <h1>Settings</h1>
      <div class="columns">
        <AgentProfiles />
        <ApiTokens />
      </div>
    </section>
  );
}
