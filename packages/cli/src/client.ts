import { createRestClient, errorOf, type RestClient } from '@kandev/rest-client';
import type { ResolvedConfig } from './config';
import { CliError, kindOfStatus } from './errors';

// The backend's REST API over Node's fetch, typed by the backend's OpenAPI document: `rest` is the
// generated client (@kandev/rest-client, npm run gen:rest-client), so a call names a documented path
// and gets the documented answer's type; nothing here restates a REST shape. Every failure becomes a
// CliError whose message is the backend's own error message.

export type Query = Record<string, string | number | boolean | undefined>;

/** Reads one page of a listing. */
export type PageReader<K extends string, T> = (query: {
  limit: number;
  cursor?: string;
}) => Promise<Answer<Record<K, T[]> & { next_cursor: string | null }>>;

/** What every generated-client call resolves to: the documented answer, or the parsed refusal. */
export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** A one-line message from the error envelope (its parsed JSON, or the body's text). */
function envelopeMessage(status: number, body: unknown): string {
  const error = errorOf(body);
  if (error !== undefined) return `${error.message} (${error.code}, HTTP ${status})`;
  const text = typeof body === 'string' ? body.trim() : '';
  return `HTTP ${status}${text === '' ? '' : `: ${text.slice(0, 200)}`}`;
}

export class ApiClient {
  /** The generated client: `rest.GET('/api/tasks/{id}', { params: { path: { id } } })`; unwrap with `ok`. */
  readonly rest: RestClient;

  constructor(readonly config: ResolvedConfig) {
    this.rest = createRestClient(config.url, {
      headers: this.headers(),
      fetch: (request: Request) => this.send(request),
    });
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', ...extra };
    if (this.config.token !== undefined) headers.authorization = `Bearer ${this.config.token}`;
    return headers;
  }

  url(path: string, query: Query = {}): string {
    const url = new URL(`${this.config.url}${path}`);
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  /** fetch that turns "nothing answered" into an `unavailable` CliError. */
  async send(input: string | Request, init?: RequestInit): Promise<Response> {
    try {
      return await fetch(input, init);
    } catch (error) {
      throw new CliError('unavailable', `cannot reach the backend at ${this.config.url}: ${describeCause(error)}`);
    }
  }

  /** A refusal as a CliError of the status's kind, in the backend's words (the event stream's too). */
  refusal(status: number, body: unknown): CliError {
    const kind = kindOfStatus(status);
    let message = envelopeMessage(status, body);
    if (kind === 'auth') message += `; token from ${this.config.tokenSource}`;
    // A refusal by the token's role or workspaces: say where to see them.
    if (status === 403 && message.includes('this token')) message += " (`kandev whoami` shows the token's role)";
    return new CliError(kind, message);
  }

  /** Throws the error envelope's message as a CliError of the status's kind; resolves 2xx text. */
  async check(response: Response): Promise<string> {
    const text = await response.text();
    if (response.ok) return text;
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not the envelope: the text itself says what happened.
    }
    throw this.refusal(response.status, body);
  }

  /** The documented answer of a generated-client call, or its refusal as a CliError. */
  async ok<T>(pending: Promise<Answer<T>>): Promise<T> {
    let answer: Answer<T>;
    try {
      answer = await pending;
    } catch (error) {
      if (error instanceof CliError) throw error;
      // The generated client parses every 2xx body as JSON.
      throw new CliError(
        'unexpected',
        `the backend answered with something that is not JSON (${describeCause(error)})`,
      );
    }
    if (!answer.response.ok) throw this.refusal(answer.response.status, answer.error);
    return answer.data as T;
  }

  /** Every page of a cursor-paginated listing, in order: `page(query)` reads one. */
  async all<K extends string, T>(key: K, page: PageReader<K, T>): Promise<T[]> {
    return this.upTo(key, undefined, page);
  }

  /** The listing's first `limit` items in the server's order (every item without a limit): reads
   *  pages only until it has them, so `--limit 5` costs one small request however long the list. */
  async upTo<K extends string, T>(key: K, limit: number | undefined, page: PageReader<K, T>): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | undefined;
    do {
      const want = limit === undefined ? 200 : Math.min(200, limit - items.length);
      const read: Record<K, T[]> & { next_cursor: string | null } = await this.ok(
        page({ limit: want, ...(cursor === undefined ? {} : { cursor }) }),
      );
      items.push(...read[key]);
      cursor = read.next_cursor ?? undefined;
    } while (cursor !== undefined && (limit === undefined || items.length < limit));
    return limit === undefined ? items : items.slice(0, limit);
  }
}
