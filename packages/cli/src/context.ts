import type { Command } from 'commander';
import { ApiClient } from './client';
import { colourAllowed, type GlobalOptions, resolveConfig } from './config';
import { type Out, stdoutOut } from './output';

/** What every command runs with: the API client, where to print, and how (JSON, or wide tables). */
export interface Ctx {
  api: ApiClient;
  out: Out;
  json: boolean;
  /** `-o wide`: lists add their extra columns. */
  wide: boolean;
  /** `--yes`: a destructive verb goes ahead without asking. */
  yes: boolean;
}

interface CommonOptions extends GlobalOptions {
  output?: string;
  yes?: boolean;
}

export function contextOf(command: Command): Ctx {
  const options = command.optsWithGlobals<CommonOptions>();
  return {
    api: new ApiClient(resolveConfig(options)),
    out: stdoutOut(colourAllowed()),
    json: options.json === true || options.output === 'json',
    wide: options.output === 'wide',
    yes: options.yes === true,
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
