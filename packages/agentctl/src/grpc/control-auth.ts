import type { Metadata } from '@grpc/grpc-js';
import { parseBearer, secretMatchesHash } from '@kandev/protocol';

/**
 * True when the call carries exactly one `authorization: Bearer <control token>` whose SHA-256 matches
 * (constant-time comparison of digests, so neither length nor content leaks through timing).
 */
export function isAuthorizedCall(metadata: Metadata, controlTokenHash: string): boolean {
  const values = metadata.get('authorization');
  if (values.length !== 1) return false;
  const token = parseBearer(typeof values[0] === 'string' ? values[0] : undefined);
  return token !== undefined && secretMatchesHash(token, controlTokenHash);
}
