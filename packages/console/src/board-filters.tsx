import { useState } from 'preact/hooks';
import { FILTER_KEYS } from './task-list';

/** Search and filters; applying them changes the address (`#/?q=...`), so a filtered board is a link. */
export function BoardFilters(props: { params: URLSearchParams }) {
  const initial = (key: string) => props.params.get(key) ?? '';
  const [q, setQ] = useState(initial('q'));
  const apply = (changes: Record<string, string>) => {
    const next = new URLSearchParams(props.params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === '') next.delete(key);
      else next.set(key, value);
    }
    const query = next.toString();
    location.hash = `#/${query === '' ? '' : `?${query}`}`;
  };
  const select = (key: string, label: string, options: [string, string][]) => (
    <select aria-label={label} value={initial(key)} onChange={(e) => apply({ [key]: e.currentTarget.value })}>
      {options.map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
    </select>
  );
  const check = (key: string, label: string) => (
    <label class="check">
      <input
        type="checkbox"
        checked={initial(key) === 'true'}
        onChange={(e) => apply({ [key]: e.currentTarget.checked ? 'true' : '' })}
      />{' '}
      {label}
    </label>
  );
  return (
    <form
      class="inline filters"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        apply({ q: q.trim() });
      }}
    >
      <input
        type="search"
        aria-label="Search titles"
        placeholder="Search titles"
        value={q}
        onInput={(e) => setQ(e.currentTarget.value)}
      />
      <button type="submit" class="secondary">
        Search
      </button>
      {select('state', 'State', [
        ['', 'Any state'],
        ['todo', 'To do'],
        ['in_progress', 'In progress'],
        ['review', 'Review'],
        ['done', 'Done'],
      ])}
      {select('autopilot', 'Autopilot', [
        ['', 'Autopilot or not'],
        ['true', 'Autopilot'],
        ['false', 'Not autopilot'],
      ])}
      {select('provider', 'Provider', [
        ['', 'Any provider'],
        ['github', 'GitHub'],
        ['gitlab', 'GitLab'],
      ])}
      {check('pending_question', 'Waiting on a question')}
      {check('failed', 'With a failed session')}
      {FILTER_KEYS.some((key) => props.params.has(key)) && (
        <a href="#/" class="clear">
          Clear filters
        </a>
      )}
    </form>
  );
}
