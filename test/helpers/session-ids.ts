import { createHash } from 'node:crypto';

/**
 * A stable UUID for a readable test name: CreateSession accepts only UUID session ids (as the backend
 * mints them), and tests keep naming their sessions ('a', 'child', 'live').
 */
export function sessionUuid(name: string): string {
  const hex = createHash('sha256').update(`kandev-test-session:${name}`).digest('hex');
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
