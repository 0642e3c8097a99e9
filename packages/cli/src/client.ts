import { z } from 'zod';
import type { ResolvedConfig } from './config';
import { CliError, kindOfStatus } from './errors';

// The backend's REST API over Node's fetch. Every answer is validated with a zod schema at this
// boundary; every failure becomes a CliError whose message is the backend's own error message.

const ErrorEnvelopeSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});

export type Query = Record<string, string | number | boolean | undefined>;

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** A one-line message from the error envelope (plus the first detail issue when it says more). */
function envelopeMessage(status: number, text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `HTTP ${status}${text.trim() === '' ? '' : `: ${text.trim().slice(0, 200)}`}`;
  }
  const envelope = ErrorEnvelopeSchema.safeParse(parsed);
  if (!envelope.success) return `HTTP ${status}`;
  return `${envelope.data.error.message} (${envelope.data.error.code}, HTTP ${status})`;
}

export class ApiClient {
  constructor(readonly config: ResolvedConfig) {}

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
  async send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, init);
    } catch (error) {
      throw new CliError('unavailable', `cannot reach the backend at ${this.config.url}: ${describeCause(error)}`);
    }
  }

  /** Throws the error envelope's message as a CliError of the status's kind; resolves 2xx text. */
  async check(response: Response): Promise<string> {
    const text = await response.text();
    if (response.ok) return text;
    const kind = kindOfStatus(response.status);
    let message = envelopeMessage(response.status, text);
    if (kind === 'auth') message += `; token from ${this.config.tokenSource}`;
    throw new CliError(kind, message);
  }

  async request<S extends z.ZodType>(
    schema: S,
    method: string,
    path: string,
    options: { query?: Query; body?: unknown } = {},
  ): Promise<z.output<S>> {
    const init: RequestInit = { method, headers: this.headers() };
    if (options.body !== undefined) {
      init.headers = this.headers({ 'content-type': 'application/json' });
      init.body = JSON.stringify(options.body);
    }
    const text = await this.check(await this.send(this.url(path, options.query), init));
    let json: unknown;
    try {
      json = text === '' ? {} : JSON.parse(text);
    } catch {
      throw new CliError('unexpected', `${method} ${path}: the backend answered with something that is not JSON`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue === undefined ? '' : ` at ${issue.path.join('.') || '(root)'}: ${issue.message}`;
      throw new CliError('unexpected', `${method} ${path}: unexpected answer from the backend${where}`);
    }
    return parsed.data;
  }

  get<S extends z.ZodType>(schema: S, path: string, query?: Query): Promise<z.output<S>> {
    return this.request(schema, 'GET', path, { query });
  }

  post<S extends z.ZodType>(schema: S, path: string, body: unknown): Promise<z.output<S>> {
    return this.request(schema, 'POST', path, { body });
  }

  /** Every page of a cursor-paginated listing, in order. */
  async all<T>(path: string, key: string, item: z.ZodType<T>, query: Query = {}): Promise<T[]> {
    const schema = z.object({ items: z.array(item), next_cursor: z.string().nullable() });
    const pageSchema = z.looseObject({ next_cursor: z.string().nullable() }).transform((page, ctx) => {
      const parsed = schema.safeParse({ items: page[key], next_cursor: page.next_cursor });
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ code: 'custom', message: issue.message, path: [key, ...issue.path.slice(1)] });
      }
      return z.NEVER;
    });
    const items: T[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.get(pageSchema, path, { ...query, limit: 200, cursor });
      items.push(...page.items);
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    return items;
  }
}
