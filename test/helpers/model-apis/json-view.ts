// Narrowing helpers for request bodies the stand-ins read: unknown JSON in, typed values out, never `any`.

export type JsonRecord = Record<string, unknown>;

export function asRecord(value: unknown): JsonRecord | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonRecord) : undefined;
}

/** The records of an array (anything else in it is skipped); [] when it is not an array. */
export function records(value: unknown): JsonRecord[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown): JsonRecord[] => {
    const record = asRecord(item);
    return record === undefined ? [] : [record];
  });
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A field path into nested records: field(body, 'a', 'b') is body.a.b when every step is a record. */
export function field(value: unknown, ...path: string[]): unknown {
  let at: unknown = value;
  for (const key of path) at = asRecord(at)?.[key];
  return at;
}
