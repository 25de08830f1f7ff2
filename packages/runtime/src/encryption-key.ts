import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@gateway/config';

// The key that seals what the gateway hands callers to send back (reasoning traces). Set by
// GATEWAY_ENCRYPTION_KEY when several instances must open each other's values; otherwise made
// once into the data folder, so sealed values still open after a restart.

const KEY_BYTES = 32;
const FILE = 'encryption.key';
const HINT = `must be ${KEY_BYTES} bytes in base64 (make one with: openssl rand -base64 ${KEY_BYTES})`;

/** The key a base64 text names, or undefined when it is not exactly 32 bytes of base64 (or base64url). */
function decodeKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === KEY_BYTES ? key : undefined;
}

function invalidKey(source: string, path: string, message: string): ConfigError {
  return new ConfigError(source, [{ path, message }]);
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

/** The stored key, undefined when there is none yet; a file that holds no key stops the start. */
function readKeyFile(path: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  const key = decodeKey(text);
  // Never replaced silently: values sealed with the lost key would stop opening.
  if (!key) throw invalidKey(path, FILE, `${HINT}; restore it, or delete it to make a new key`);
  return key;
}

/**
 * A new key, written whole under a temporary name then linked into place: a link never replaces
 * an existing file, so of two instances starting at once one key wins and both read it.
 */
function createKeyFile(dir: string, path: string): Buffer {
  mkdirSync(dir, { recursive: true });
  const key = randomBytes(KEY_BYTES);
  const temp = join(dir, `.${FILE}.${process.pid}.${randomBytes(6).toString('hex')}`);
  writeFileSync(temp, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temp, path);
    return key;
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temp);
  }
  const winner = readKeyFile(path);
  if (!winner) throw new Error(`${path} vanished while it was being created`);
  return winner;
}

export function loadEncryptionKey(env: { GATEWAY_ENCRYPTION_KEY?: string }, dataDir: string): Buffer {
  const configured = env.GATEWAY_ENCRYPTION_KEY;
  // Empty counts as unset: what `KEY=` in an env file or compose's `${KEY:-}` leaves.
  if (configured !== undefined && configured.trim() !== '') {
    const key = decodeKey(configured);
    if (!key) throw invalidKey('GATEWAY_ENCRYPTION_KEY', 'GATEWAY_ENCRYPTION_KEY', HINT);
    return key;
  }
  const path = join(dataDir, FILE);
  return readKeyFile(path) ?? createKeyFile(dataDir, path);
}
