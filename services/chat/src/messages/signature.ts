import { createHmac, timingSafeEqual } from 'node:crypto';

// A thinking block's `signature`: an HMAC of its text, so a block the caller sends back is known
// to be the upstream's own reasoning, unaltered, before the gateway replays it as the model's.
// Layout, base64: version (1 byte) | HMAC-SHA256 (32).

const VERSION = 1;
/** Binds the signing key to this use: it is derived from the gateway's key, never that key itself (which seals reasoning). */
const PURPOSE = 'gateway/messages/thinking-signature-v1';

function signingKey(key: Buffer): Buffer {
  return createHmac('sha256', key).update(PURPOSE).digest();
}

export function signThinking(key: Buffer, text: string): string {
  const mac = createHmac('sha256', signingKey(key)).update(text, 'utf8').digest();
  return Buffer.concat([Buffer.of(VERSION), mac]).toString('base64');
}

/** True only for the signature this key makes for this text: false for empty, foreign, malformed or altered ones. */
export function verifyThinking(key: Buffer, text: string, signature: unknown): boolean {
  if (typeof signature !== 'string' || signature === '' || typeof text !== 'string') return false;
  // Compared as the canonical string, so no other base64 spelling of the same bytes passes.
  const expected = Buffer.from(signThinking(key, text));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
