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
