import type { Command } from 'commander';
import { ApiClient } from './client';
import { colourAllowed, type GlobalOptions, resolveConfig } from './config';
import { type Out, stdoutOut } from './output';

/** What every command runs with: the API client, where to print, and whether to print JSON. */
export interface Ctx {
  api: ApiClient;
  out: Out;
  json: boolean;
}

export function contextOf(command: Command): Ctx {
  const options = command.optsWithGlobals<GlobalOptions>();
  return {
    api: new ApiClient(resolveConfig(options)),
    out: stdoutOut(colourAllowed()),
    json: options.json === true,
  };
}

type Action<A extends unknown[]> = (ctx: Ctx, ...args: A) => Promise<void>;

/** Runs an action with the command's context; commander passes the options and the command last. */
export function run<A extends unknown[]>(action: Action<A>) {
  return async (...args: unknown[]): Promise<void> => {
    const command = args[args.length - 1] as Command;
    await action(contextOf(command), ...(args.slice(0, -1) as A));
  };
}
