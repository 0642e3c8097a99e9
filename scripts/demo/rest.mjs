// The demo's REST client: each call states the status it expects, so a surprise stops the demo with the
// backend's own error body.
import { setTimeout as sleep } from 'node:timers/promises';

export class Api {
  /** `token`: the operator API token, sent on every call. */
  constructor(baseUrl, token) {
    this.baseUrl = baseUrl;
    this.token = token;
  }

  async call(method, path, expected, body) {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        authorization: `Bearer ${this.token}`,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const json = text.length > 0 ? JSON.parse(text) : null;
    if (response.status !== expected) {
      throw new Error(`${method} ${path} -> ${response.status} (expected ${expected}): ${text}`);
    }
    return json;
  }

  get(path) {
    return this.call('GET', path, 200);
  }

  create(path, body) {
    return this.call('POST', path, 201, body);
  }
}

/** Polls `probe` until it returns a value (not undefined/null/false); fails after timeoutMs with `what`. */
export async function waitFor(probe, what, { timeoutMs = 30_000, intervalMs = 50 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** The whole conversation of a task, oldest first. */
export async function conversation(api, taskId) {
  const all = [];
  let cursor = null;
  do {
    const query = cursor === null ? '?limit=200' : `?limit=200&cursor=${encodeURIComponent(cursor)}`;
    const page = await api.get(`/api/tasks/${taskId}/messages${query}`);
    all.push(...page.messages);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return all;
}
