import { createHash, timingSafeEqual } from 'node:crypto';
import { Metadata } from '@grpc/grpc-js';

/** Shortest control token agentctl accepts (env or file). */
export const CONTROL_TOKEN_MIN_LENGTH = 32;

export function controlTokenMetadata(token: string): Metadata {
  const metadata = new Metadata();
  metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

/** The bearer of an `Authorization` value, or undefined when it is absent or not a bearer. */
export function parseBearer(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1];
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time comparison of a presented secret against a stored SHA-256 hex digest. */
export function secretMatchesHash(presented: string, expectedHashHex: string): boolean {
  const presentedHash = Buffer.from(sha256Hex(presented), 'hex');
  const expected = Buffer.from(expectedHashHex, 'hex');
  return expected.length === presentedHash.length && timingSafeEqual(presentedHash, expected);
}
