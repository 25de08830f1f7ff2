import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashSecret, KEY_PREFIX } from '@gateway/contracts';

// Key secrets: 192 random bits behind an "sk-" prefix. Only the SHA-256 is stored; a fast hash
// is enough because the secret is random, not a password, and keeps the auth path cheap.

// The format and the hash are the edge's too, so they live in the contracts.
export { hashSecret, KEY_PREFIX };
const SECRET_BYTES = 24;

export function newSecret(): string {
  return `${KEY_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`;
}

/** Constant-time comparison of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** "sk-…" plus the last four characters: enough to tell keys apart, useless to an attacker. */
export function secretHint(secret: string): string {
  return `${KEY_PREFIX}…${secret.slice(-4)}`;
}

export function newKeyId(): string {
  return `key_${randomBytes(12).toString('base64url')}`;
}
