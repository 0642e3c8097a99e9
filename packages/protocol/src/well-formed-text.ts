// Text every boundary refuses, on either database alike: NUL (PostgreSQL's text cannot hold it) and a
// lone UTF-16 surrogate (JSON's "\ud800" escape and protobuf's lenient UTF-8 decoder both produce one;
// it has no UTF-8 encoding, so SQLite would store invalid bytes where PostgreSQL refuses the row).

/** A surrogate code unit not part of a pair (with the `u` flag a pair is one code point, never Cs). */
const LONE_SURROGATE = /\p{Cs}/u;

export const NUL_REFUSED = 'text must not contain NUL (U+0000) characters';
export const SURROGATE_REFUSED = 'text must be well-formed Unicode (no unpaired UTF-16 surrogates)';

/** Why `text` is refused, or undefined when it is fine. */
export function refusedTextReason(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL_REFUSED;
  if (LONE_SURROGATE.test(text)) return SURROGATE_REFUSED;
  return undefined;
}

/**
 * Why a string anywhere in `value` (object keys included) is refused, or undefined. Depth-first with a
 * stack of its own: any nesting a decoder accepted is searched to the end. Buffers (protobuf bytes)
 * are not text and are skipped.
 */
export function refusedTextIn(value: unknown): string | undefined {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      const reason = refusedTextReason(item);
      if (reason !== undefined) return reason;
    } else if (Array.isArray(item)) {
      for (const child of item) pending.push(child);
    } else if (typeof item === 'object' && item !== null && !Buffer.isBuffer(item) && !ArrayBuffer.isView(item)) {
      for (const [key, child] of Object.entries(item)) {
        const reason = refusedTextReason(key);
        if (reason !== undefined) return reason;
        pending.push(child);
      }
    }
  }
  return undefined;
}
