import { hash } from 'node:crypto';

// The key rules both sides of an authentication agree on: what a secret looks like, how it is
// hashed (only the hash crosses to accounting), and what a key's model list means.

export const KEY_PREFIX = 'sk-';

/**
 * SHA-256, lowercase hex: a fast hash is enough because the secret is random, not a password.
 * The one-shot `hash` builds no Hash object: half the time of `createHash` (0.7 against 1.4 µs
 * on Node 24), once per authenticated call.
 */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** A shape check before any lookup: "sk-" then URL-safe base64 of a plausible length. */
export function looksLikeSecret(value: string): boolean {
  return /^sk-[A-Za-z0-9_-]{20,200}$/.test(value);
}

/** A key's model list entry that allows every group. */
export const ALL_MODELS = '*';

export function keyAllows(key: { readonly models: readonly string[] }, groupId: string): boolean {
  return key.models.includes(ALL_MODELS) || key.models.includes(groupId);
}
