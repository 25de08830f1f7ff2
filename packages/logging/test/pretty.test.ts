import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, logFormatOf, prettyLine } from '../src/index.js';

describe('pretty log lines', () => {
  it('reads an access line as method, route, status and time, then the fields', () => {
    const line = prettyLine(
      JSON.stringify({
        level: 'info',
        time: '2026-11-24T19:02:33.125Z',
        service: 'edge',
        msg: 'request',
        method: 'POST',
        route: '/v1/chat/completions',
        status: 200,
        ms: 12.3,
        keyId: 'key_1',
        reason: 'two words',
      }),
      false,
    );
    expect(line).toBe('19:02:33.125 INFO  [edge] POST /v1/chat/completions 200 12.3ms  keyId=key_1 reason="two words"\n');
  });

  it('colours only for a terminal, and shows an error with its stack below', () => {
    const json = JSON.stringify({
      level: 'error',
      time: '2026-11-24T19:02:33.125Z',
      msg: 'request failed',
      err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at here' },
    });
    expect(prettyLine(json, false)).toBe('19:02:33.125 ERROR request failed  err="Error: boom"\n    at here\n');
    expect(prettyLine(json, true)).toContain('\u001b[31mERROR\u001b[39m');
  });

  it('passes a line that is not JSON through', () => {
    expect(prettyLine('plain text', false)).toBe('plain text\n');
  });

  it('is chosen by LOG_FORMAT, which refuses anything else', () => {
    expect(logFormatOf({})).toBeUndefined();
    expect(logFormatOf({ LOG_FORMAT: 'Pretty' })).toBe('pretty');
    expect(() => logFormatOf({ LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT must be json or pretty/);
  });

  it('redacts before formatting', () => {
    const out: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger({ format: 'pretty', destination });
    logger.info({ authorization: 'Bearer sk-secret-0123456789' }, 'hello');
    expect(out.join('')).toContain('authorization=[redacted]');
    expect(out.join('')).not.toContain('sk-secret');
  });
});
