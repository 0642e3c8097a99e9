import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const BUILD_INFO_METRIC = 'kandev_build_info';

/**
 * The kandev release: every workspace package carries the same version, so this package's own
 * package.json (one folder above both src/ and dist/) names it for the backend and agentctl alike.
 */
export function kandevVersion(): string {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
    const version = (parsed as { version?: unknown }).version;
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The labels of `kandev_build_info` (always 1): which release runs on which Node. */
export function buildInfo(): { version: string; node: string } {
  return { version: kandevVersion(), node: process.versions.node };
}
