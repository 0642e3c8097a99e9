import type { Ctx } from '../context';
import { CliError } from '../errors';

// A request to a route the generated client does not know yet (added to the backend alongside these
// verbs; `npm run gen:rest-client` picks it up). Its answer is typed by the documented shape the caller
// names, as the generated client types its answers: the backend's document is the contract either way.

export async function rawRequest<T>(ctx: Ctx, method: string, path: string, body?: unknown): Promise<T | undefined> {
  const headers = ctx.api.headers(body === undefined ? {} : { 'content-type': 'application/json' });
  const init: RequestInit = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
  const text = await ctx.api.check(await ctx.api.send(ctx.api.url(path), init));
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new CliError('unexpected', `${method} ${path}: the backend answered with something that is not JSON`);
  }
}
