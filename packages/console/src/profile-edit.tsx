import { useState } from 'preact/hooks';
import { type AgentProfile, type ProfilePatch, updateAgentProfile } from './api';
import { describeError } from './errors';

/** `KEY=value` lines to an env object; a line without `=` is an error (nothing is sent). */
export function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '') continue;
    const at = line.indexOf('=');
    if (at <= 0) throw new Error(`"${line.split('=')[0] ?? ''}…": an env line is KEY=value`);
    env[line.slice(0, at)] = line.slice(at + 1);
  }
  return env;
}

/**
 * A profile's edit form. Only what changed is sent (one PATCH, all or nothing). Env values are
 * write-only: the form never shows them; new lines set variables, a ticked key is removed, the rest kept.
 */
export function EditProfile(props: { profile: AgentProfile; onSaved: () => void; onCancel: () => void }) {
  const p = props.profile;
  const [form, setForm] = useState({
    name: p.name,
    command: p.command,
    args: (p.args ?? []).join('\n'),
    env: '',
    mcp: p.supports_mcp,
  });
  const [removed, setRemoved] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | undefined>();
  const set = (change: Partial<typeof form>) => setForm({ ...form, ...change });
  const submit = (event: Event) => {
    event.preventDefault();
    const patch: ProfilePatch = {};
    try {
      const env: Record<string, string | null> = parseEnv(form.env);
      for (const key of removed) if (!(key in env)) env[key] = null;
      if (Object.keys(env).length > 0) patch.env = env;
    } catch (failure) {
      setError(describeError(failure));
      return;
    }
    const args = form.args.split('\n').filter((a) => a.trim() !== '');
    if (form.name.trim() !== p.name) patch.name = form.name.trim();
    if (form.command.trim() !== p.command) patch.command = form.command.trim();
    if (args.join('\n') !== (p.args ?? []).join('\n')) patch.args = args;
    if (form.mcp !== p.supports_mcp) patch.supports_mcp = form.mcp;
    if (Object.keys(patch).length === 0) {
      props.onCancel();
      return;
    }
    updateAgentProfile(p.id, patch).then(props.onSaved, (failure: unknown) => setError(describeError(failure)));
  };
  return (
    <form class="stack" onSubmit={submit} aria-label={`Edit profile ${p.name}`}>
      <CommandFields form={form} set={set} />
      <label>
        Set environment variables (KEY=value per line; values are never shown)
        <textarea rows={2} value={form.env} autocomplete="off" onInput={(e) => set({ env: e.currentTarget.value })} />
      </label>
      {(p.env_keys ?? []).length > 0 && (
        <fieldset>
          <legend>Remove variables</legend>
          {(p.env_keys ?? []).map((key) => (
            <label class="check" key={key}>
              <input
                type="checkbox"
                checked={removed.has(key)}
                onChange={(e) => {
                  const next = new Set(removed);
                  if (e.currentTarget.checked) next.add(key);
                  else next.delete(key);
                  setRemoved(next);
                }}
              />{' '}
              {key}
            </label>
          ))}
        </fieldset>
      )}
      <label class="check">
        <input type="checkbox" checked={form.mcp} onChange={(e) => set({ mcp: e.currentTarget.checked })} /> Supports
        MCP
      </label>
      <span>
        <button type="submit">Save profile</button>{' '}
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </span>
      {error !== undefined && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

interface CommandForm {
  name: string;
  command: string;
  args: string;
}

/** The name, command and arguments of a profile, as the new and the edit forms both ask for them. */
export function CommandFields(props: { form: CommandForm; set: (change: Partial<CommandForm>) => void }) {
  const { form, set } = props;
  return (
    <>
      <label>
        Name <input value={form.name} onInput={(e) => set({ name: e.currentTarget.value })} required />
      </label>
      <label>
        Command <input value={form.command} onInput={(e) => set({ command: e.currentTarget.value })} required />
      </label>
      <label>
        Arguments (one per line){' '}
        <textarea rows={2} value={form.args} onInput={(e) => set({ args: e.currentTarget.value })} />
      </label>
    </>
  );
}
