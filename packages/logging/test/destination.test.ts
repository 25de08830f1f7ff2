import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bufferedDestination, createLogger } from '../src/index.js';

// Log lines on standard output go out in batches: a line waits at most the flush delay, a full
// buffer goes at once, and what waits when the process exits is written before it ends.

const dir = mkdtempSync(join(tmpdir(), 'log-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('bufferedDestination', () => {
  it('writes the lines that arrive together in one go, within the flush delay', async () => {
    const file = join(dir, 'together.log');
    const fd = openSync(file, 'w');
    try {
      const destination = bufferedDestination({ fd, flushMs: 100 });
      const logger = createLogger({ name: 'test', destination });
      logger.info('one');
      logger.info('two');
      logger.warn('three');
      await sleep(20);
      // Still waiting for more, off the event loop's way.
      expect(readFileSync(file, 'utf8')).toBe('');
      await sleep(250);
      const lines = readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { msg: string; level: string });
      expect(lines.map((line) => line.msg)).toEqual(['one', 'two', 'three']);
      expect(lines[2]?.level).toBe('warn');
    } finally {
      closeSync(fd);
    }
  });

  it('writes a full buffer without waiting for the delay', async () => {
    const file = join(dir, 'full.log');
    const fd = openSync(file, 'w');
    try {
      const destination = bufferedDestination({ fd, flushMs: 60_000, bufferBytes: 1024 });
      for (let i = 0; i < 20; i += 1) destination.write(`${JSON.stringify({ i, pad: 'x'.repeat(100) })}\n`);
      await sleep(200);
      const written = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      // At least the first full buffer is out, in order, long before the minute is up.
      expect(written.length).toBeGreaterThanOrEqual(8);
      expect(written.map((line) => (JSON.parse(line) as { i: number }).i)).toEqual(written.map((_, i) => i));
      destination.flush();
      await sleep(200);
      expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(20);
    } finally {
      closeSync(fd);
    }
  });

  it('writes the lines logged while a slow write was under way, with nothing logged after them', async () => {
    // A FIFO nobody reads yet: the first write fills its 64 KiB and waits in the thread pool.
    const fifo = join(dir, 'slow.fifo');
    const out = join(dir, 'slow.out');
    execFileSync('mkfifo', [fifo]);
    const fd = openSync(fifo, 'r+');
    try {
      const destination = bufferedDestination({ fd, flushMs: 20, bufferBytes: 1024 });
      for (let i = 0; i < 700; i += 1) destination.write(`${JSON.stringify({ i, pad: 'x'.repeat(100) })}\n`);
      destination.write(`${JSON.stringify({ msg: 'late' })}\n`);
      // Its flush delay passes while the write is still under way.
      await sleep(200);
      const reader = spawn('sh', ['-c', `timeout 2 cat ${fifo} > ${out}`]);
      await new Promise((resolve) => reader.once('close', resolve));
      const lines = readFileSync(out, 'utf8').split('\n').filter(Boolean);
      expect(lines).toHaveLength(701);
      expect(lines.at(-1)).toBe('{"msg":"late"}');
    } finally {
      closeSync(fd);
    }
  });

  it("calls back pino's logger.flush once what waited is written", async () => {
    const file = join(dir, 'flushed.log');
    const fd = openSync(file, 'w');
    try {
      const logger = createLogger({ name: 'test', destination: bufferedDestination({ fd, flushMs: 60_000 }) });
      logger.info('waiting');
      await new Promise<void>((resolve, reject) => logger.flush((error) => (error ? reject(error) : resolve())));
      expect(readFileSync(file, 'utf8')).toContain('"msg":"waiting"');
    } finally {
      closeSync(fd);
    }
  });
});

describe('the default destination (standard output)', () => {
  const logging = fileURLToPath(new URL('../dist/index.js', import.meta.url));

  /** Runs a script with the built package as `logging`, and returns its standard output. */
  function run(script: string): Promise<string> {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', `import * as logging from ${JSON.stringify(logging)};\n${script}`],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
      },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exited with ${code}: ${out}`))));
    });
  }

  it('writes what waits when the process exits, even at once', async () => {
    const out = await run(`
      const logger = logging.createLogger({ name: 'exit' });
      for (let i = 0; i < 50; i += 1) logger.info({ i }, 'line');
      process.exit(0);
    `);
    const lines = out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { i: number; service: string });
    expect(lines.map((line) => line.i)).toEqual([...Array(50).keys()]);
    expect(lines[0]?.service).toBe('exit');
  });

  it('exits when its standard output was closed, the lines waiting then given up', async () => {
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import * as logging from ${JSON.stringify(logging)};
        const logger = logging.createLogger({ name: 'gone' });
        setTimeout(() => { for (let i = 0; i < 50; i += 1) logger.info({ i }, 'line'); process.exit(3); }, 200);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' } },
    );
    // The reader goes away before the lines are written: the exit flush meets a closed pipe.
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(null);
      }, 10_000);
      child.once('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(code).toBe(3);
  });

  it('writes a lone line within the flush delay while the process runs on', async () => {
    const out = await run(`
      const logger = logging.createLogger({ name: 'alone' });
      logger.info('alone');
      // Written straight to standard output 300 ms later, with the process still running.
      setTimeout(() => { process.stdout.write(JSON.stringify({ marker: true }) + '\\n'); }, 300);
    `);
    const lines = out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg?: string; marker?: boolean });
    // The log line came out before the marker written 300 ms later: it did not wait for the exit.
    expect(lines.map((line) => line.msg ?? 'marker')).toEqual(['alone', 'marker']);
  });
});
