import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/index.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  return { lines, logger: createLogger({ name: 'test', level: 'debug', destination }) };
}

describe('logger', () => {
  it('redacts authorization headers, keys, credentials and signed URLs wherever they sit', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        req: { headers: { authorization: 'Bearer sk-secret-value-1', 'x-api-key': 'sk-secret-value-2' } },
        key: 'sk-secret-value-3',
        upstream: { api_key: 'provider-credential-4', url: 'https://cdn.example/clip.mp4?X-Signature=5' },
        deployment: { credential: 'provider-credential-6', token: 'admin-7' },
        keyId: 'key_visible',
      },
      'request',
    );
    const line = lines.join('');
    for (const secret of [
      'sk-secret-value-1',
      'sk-secret-value-2',
      'sk-secret-value-3',
      'provider-credential-4',
      'X-Signature=5',
      'provider-credential-6',
      'admin-7',
    ]) {
      expect(line).not.toContain(secret);
    }
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(parsed).toMatchObject({ level: 'info', service: 'test', keyId: 'key_visible', key: '[redacted]', msg: 'request' });
  });
});

describe('secrets in log lines', () => {
  it('are taken out of bindings, errors and nested objects at any depth, and nothing else changes', () => {
    const { lines, logger } = capture();
    const child = logger.child({ token: 'binding-secret-1', component: 'bus' });
    const failure = Object.assign(new TypeError('upstream failed'), { url: 'https://cdn.example/x?X-Signature=2' });
    const nested = Object.assign(new Error('inner'), { credential: 'provider-credential-3' });
    const line = {
      err: failure,
      cause: nested,
      deep: { a: { b: { c: { headers: { authorization: 'Bearer sk-deep-4' } } } } },
      list: [{ api_key: 'provider-credential-5' }, 'plain'],
      at: new Date(0),
      keyId: 'key_visible',
      missing: { key: undefined },
      // A class instance is written field by field: its secrets go too.
      upstream: new (class Upstream {
        url = 'https://cdn.example/y?X-Signature=6';
        provider = 'ark';
      })(),
    };
    child.error(line, 'failed');
    const text = lines.join('');
    for (const secret of [
      'binding-secret-1',
      'X-Signature=2',
      'provider-credential-3',
      'sk-deep-4',
      'provider-credential-5',
      'X-Signature=6',
    ]) {
      expect(text).not.toContain(secret);
    }
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      token: '[redacted]',
      component: 'bus',
      err: { type: 'TypeError', message: 'upstream failed', url: '[redacted]' },
      cause: { type: 'Error', message: 'inner', credential: '[redacted]' },
      deep: { a: { b: { c: { headers: { authorization: '[redacted]' } } } } },
      list: [{ api_key: '[redacted]' }, 'plain'],
      at: '1970-01-01T00:00:00.000Z',
      keyId: 'key_visible',
      upstream: { url: '[redacted]', provider: 'ark' },
    });
    // The caller's objects are left as they were.
    expect(failure.url).toBe('https://cdn.example/x?X-Signature=2');
    expect(line.deep.a.b.c.headers.authorization).toBe('Bearer sk-deep-4');
  });
});
