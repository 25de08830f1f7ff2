import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// A reasoning trace handed to the caller as `encrypted_content` and read back when the caller
// sends the item again: sealed with AES-256-GCM so the caller can neither read nor alter what
// the gateway will replay to the upstream as the model's own reasoning.
// Layout, base64: version (1 byte) | IV (12) | auth tag (16) | ciphertext.

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;
/** Binds a sealed value to this use: a ciphertext the same key made for anything else does not open here. */
const PURPOSE = Buffer.from('gateway/responses/reasoning');

export function sealReasoning(key: Buffer, text: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(PURPOSE);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.of(VERSION), iv, cipher.getAuthTag(), body]).toString('base64');
}

/** The sealed text, or undefined for anything this key did not seal (wrong key, altered, not ours). */
export function openReasoning(key: Buffer, sealed: string): string | undefined {
  if (typeof sealed !== 'string') return undefined;
  const bytes = Buffer.from(sealed, 'base64');
  if (bytes.length < HEADER_BYTES || bytes[0] !== VERSION) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, 1 + IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(PURPOSE);
    decipher.setAuthTag(bytes.subarray(1 + IV_BYTES, HEADER_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(HEADER_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
