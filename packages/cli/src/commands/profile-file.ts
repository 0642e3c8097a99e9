import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { usage } from '../errors';

// A profile file (docs/agent-profiles/*.json): the body of POST /api/agent-profiles, as shipped. The CLI
// posts it as is, with the variables given on the command line added to its env.

const ProfileFileSchema = z
  .object({
    name: z.string().min(1),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    supports_mcp: z.boolean().optional(),
    permission_policy: z.string().optional(),
  })
  .strict();
export type ProfileFile = z.output<typeof ProfileFileSchema>;

/** Reads and checks a profile file; a missing file or a bad field is a usage error naming it. */
export function loadProfileFile(
  path: string,
  read: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): ProfileFile {
  let json: unknown;
  try {
    json = JSON.parse(read(path));
  } catch (err) {
    throw usage(`--from ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = ProfileFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw usage(`--from ${path}: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** `KEY=VALUE` pairs from repeated --env options. */
export function envPairs(pairs: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [index, pair] of pairs.entries()) {
    const at = pair.indexOf('=');
    // The text is not echoed: a value given without its key may be a secret.
    if (at <= 0) throw usage(`--env wants KEY=VALUE (option ${index + 1} has no key; its text is not shown)`);
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}
