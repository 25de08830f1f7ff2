import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@gateway/config';
import { afterEach, describe, expect, it } from 'vitest';
import { loadEncryptionKey } from '@gateway/runtime';
import { openReasoning, sealReasoning } from '../src/responses/sealed-reasoning.js';

// Reasoning handed out sealed opens only with the key that sealed it, unaltered; the key comes
// from GATEWAY_ENCRYPTION_KEY or is made once into the data folder and kept.

const key = randomBytes(32);

describe('sealed reasoning', () => {
  it('opens what it sealed, and seals the same text differently each time', () => {
    const text = 'First, 2 + 2 … então 4 ✓';
    const sealed = sealReasoning(key, text);
    expect(sealed).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(sealed).not.toContain('então');
    expect(openReasoning(key, sealed)).toBe(text);
    expect(sealReasoning(key, text)).not.toBe(sealed);
    expect(openReasoning(key, sealReasoning(key, ''))).toBe('');
  });

  it('does not open with another key', () => {
    expect(openReasoning(randomBytes(32), sealReasoning(key, 'secret'))).toBeUndefined();
  });

  it('does not open when any byte was altered', () => {
    const bytes = Buffer.from(sealReasoning(key, 'secret thoughts'), 'base64');
    for (let i = 0; i < bytes.length; i++) {
      const tampered = Buffer.from(bytes);
      tampered[i] = (tampered[i] ?? 0) ^ 0x01;
      expect(openReasoning(key, tampered.toString('base64'))).toBeUndefined();
    }
    expect(openReasoning(key, bytes.subarray(0, bytes.length - 1).toString('base64'))).toBeUndefined();
  });

  it('returns undefined, never throws, for garbage and other versions', () => {
    for (const junk of ['', 'not base64 at all!', 'AAAA', randomBytes(64).toString('base64'), '%%%']) {
      expect(openReasoning(key, junk)).toBeUndefined();
    }
    const bytes = Buffer.from(sealReasoning(key, 'x'), 'base64');
    bytes[0] = 2;
    expect(openReasoning(key, bytes.toString('base64'))).toBeUndefined();
    expect(openReasoning(Buffer.alloc(5), sealReasoning(key, 'x'))).toBeUndefined();
  });
});

describe('loadEncryptionKey', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-key-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('takes a 32-byte base64 key from the environment, writing nothing', () => {
    const dir = tempDir();
    expect(loadEncryptionKey({ GATEWAY_ENCRYPTION_KEY: key.toString('base64') }, dir)).toEqual(key);
    expect(loadEncryptionKey({ GATEWAY_ENCRYPTION_KEY: ` ${key.toString('base64url')}\n` }, dir)).toEqual(key);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a key of another length or not base64, naming the variable', () => {
    const dir = tempDir();
    for (const bad of [randomBytes(16).toString('base64'), randomBytes(33).toString('base64'), 'not a key!', 'x'.repeat(44)]) {
      let thrown: unknown;
      try {
        loadEncryptionKey({ GATEWAY_ENCRYPTION_KEY: bad }, dir);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect((thrown as ConfigError).code).toBe('config_invalid');
      expect((thrown as ConfigError).message).toMatch(/GATEWAY_ENCRYPTION_KEY.*32 bytes in base64/s);
    }
  });

  it('without one, makes a key into the data folder once (mode 0600) and reads it back after', () => {
    const dir = join(tempDir(), 'nested', 'data');
    const first = loadEncryptionKey({}, dir);
    expect(first).toHaveLength(32);
    const file = join(dir, 'encryption.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toEqual(first);
    expect(loadEncryptionKey({}, dir)).toEqual(first);
    expect(loadEncryptionKey({ GATEWAY_ENCRYPTION_KEY: '' }, dir)).toEqual(first);
    // No temporary file left behind.
    expect(readdirSync(dir)).toEqual(['encryption.key']);
    const sealed = sealReasoning(first, 'kept across restarts');
    expect(openReasoning(loadEncryptionKey({}, dir), sealed)).toBe('kept across restarts');
  });

  it('stops on a key file that holds no key rather than replacing it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'encryption.key'), 'garbage\n');
    expect(() => loadEncryptionKey({}, dir)).toThrow(ConfigError);
    expect(readFileSync(join(dir, 'encryption.key'), 'utf8')).toBe('garbage\n');
  });
});
