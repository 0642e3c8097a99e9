import type { Command } from 'commander';
import { run } from '../context';

/**
 * `kandev console`: a one-time sign-in link for the web console, so a browser signs in without the
 * token being pasted (or ever appearing in a URL: the link carries a single-use code).
 */
export function addConsoleCommand(program: Command): void {
  program
    .command('console')
    .description('print a one-time sign-in link for the web console (works once, within 5 minutes)')
    .action(
      run(async (ctx) => {
        const link = await ctx.api.ok(ctx.api.rest.POST('/api/console/login-links'));
        if (ctx.json) {
          ctx.out.json(link);
          return;
        }
        ctx.out.line(`open this link to sign in to the console (once, until ${link.expires_at}):`);
        ctx.out.line(link.url);
      }),
    );
}
