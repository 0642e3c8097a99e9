import { useState } from 'preact/hooks';
import { may } from './role';
import {
  agentProfiles,
  createAgentProfile,
  deleteAgentProfile,
  type NewAgentProfile,
  type PermissionPolicy,
  updateAgentProfile,
} from './api';
import { describeError } from './errors';
import { CommandFields, EditProfile, parseEnv } from './profile-edit';
import { useResource } from './resource';
import { ActionButton, Status, When } from './widgets';

const POLICIES: PermissionPolicy[] = ['ask', 'allow_all', 'deny_all'];

/** Agent profiles: list, create and edit (env values are write-only), change policy, delete. */
export function AgentProfiles() {
  const profiles = useResource('profiles', () => agentProfiles().then((r) => r.agent_profiles));
  const [editing, setEditing] = useState<string | undefined>();
  const [saved, setSaved] = useState<string | undefined>();
  const [policyError, setPolicyError] = useState<string | undefined>();
  return (
    <section class="panel" aria-labelledby="profiles-heading">
      <h2 id="profiles-heading">Agent profiles</h2>
      <Status error={profiles.error}>{profiles.data === undefined ? 'Loading…' : undefined}</Status>
      {profiles.data?.length === 0 && <p class="muted">No profile yet: tasks without one run no agent.</p>}
      <ul class="plain">
        {profiles.data?.map((p) => (
          <li key={p.id} class="profile" data-profile={p.name}>
            <strong>{p.name}</strong> <code class="clip">{[p.command, ...(p.args ?? [])].join(' ')}</code>
            <div class="muted">
              {p.supports_mcp ? 'MCP' : 'no MCP'} · env{' '}
              {(p.env_keys ?? []).length === 0 ? 'none' : (p.env_keys ?? []).join(', ')} · created{' '}
              <When iso={p.created_at} />
            </div>
            <label>
              Permission requests{' '}
              <select
                disabled={!may('admin')}
                value={p.permission_policy ?? 'ask'}
                onChange={(e) => {
                  updateAgentProfile(p.id, { permission_policy: e.currentTarget.value as PermissionPolicy }).then(
                    () => {
                      setPolicyError(undefined);
                      profiles.reload();
                    },
                    (failure: unknown) => setPolicyError(describeError(failure)),
                  );
                }}
              >
                {POLICIES.map((policy) => (
                  <option key={policy} value={policy}>
                    {policy.replace('_', ' ')}
                  </option>
                ))}
              </select>
            </label>{' '}
            <button
              type="button"
              class="secondary"
              data-needs="admin"
              onClick={() => {
                setSaved(undefined);
                setEditing(p.id);
              }}
            >
              Edit profile
            </button>{' '}
            <ActionButton
              needs="admin"
              label="Delete profile"
              confirm={`Delete the profile ${p.name}?`}
              run={() => deleteAgentProfile(p.id).then(profiles.reload)}
            />
            {editing === p.id && (
              <EditProfile
                profile={p}
                onCancel={() => setEditing(undefined)}
                onSaved={() => {
                  setEditing(undefined);
                  setSaved(`Saved ${p.name}.`);
                  profiles.reload();
                }}
              />
            )}
          </li>
        ))}
      </ul>
      <Status error={policyError} />
      {saved !== undefined && (
        <p class="ok-text" role="status">
          {saved}
        </p>
      )}
      <NewProfile onCreated={profiles.reload} />
    </section>
  );
}

function NewProfile(props: { onCreated: () => void }) {
  const [form, setForm] = useState({
    name: '',
    command: '',
    args: '',
    env: '',
    mcp: true,
    policy: 'ask' as PermissionPolicy,
  });
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>();
  const set = (change: Partial<typeof form>) => setForm({ ...form, ...change });
  const submit = (event: Event) => {
    event.preventDefault();
    let profile: NewAgentProfile;
    try {
      profile = {
        name: form.name.trim(),
        command: form.command.trim(),
        args: form.args.split('\n').filter((a) => a.trim() !== ''),
        env: parseEnv(form.env),
        supports_mcp: form.mcp,
        permission_policy: form.policy,
      };
    } catch (error) {
      setResult({ ok: false, text: describeError(error) });
      return;
    }
    createAgentProfile(profile).then(
      (created) => {
        setForm({ name: '', command: '', args: '', env: '', mcp: true, policy: 'ask' });
        setResult({ ok: true, text: `Created ${created.name}.` });
        props.onCreated();
      },
      (failure: unknown) => setResult({ ok: false, text: describeError(failure) }),
    );
  };
  return (
    <form class="stack" onSubmit={submit} aria-label="New agent profile" data-needs="admin">
      <h3>New profile</h3>
      <CommandFields form={form} set={set} />
      <label>
        Environment (KEY=value per line; values are never shown again)
        <textarea rows={2} value={form.env} autocomplete="off" onInput={(e) => set({ env: e.currentTarget.value })} />
      </label>
      <label class="check">
        <input type="checkbox" checked={form.mcp} onChange={(e) => set({ mcp: e.currentTarget.checked })} /> Supports
        MCP
      </label>
      <label>
        Permission requests{' '}
        <select value={form.policy} onChange={(e) => set({ policy: e.currentTarget.value as PermissionPolicy })}>
          {POLICIES.map((policy) => (
            <option key={policy} value={policy}>
              {policy.replace('_', ' ')}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={form.name.trim() === '' || form.command.trim() === ''}>
        Create profile
      </button>
      {result !== undefined && (
        <p class={result.ok ? 'ok-text' : 'error'} role={result.ok ? 'status' : 'alert'}>
          {result.text}
        </p>
      )}
    </form>
  );
}
