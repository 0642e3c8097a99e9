// JSON with object keys sorted at every level (undefined members left out), so equal content always
// gives equal text: for content fingerprints and idempotency keys on both sides of the wire.

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}
