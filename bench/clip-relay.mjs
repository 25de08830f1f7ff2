#!/usr/bin/env node
// Clip relay benchmark: a large MP4 relayed by Fastify 5 from an HTTP origin to the client, two
// ways, against the origin directly, alternating in one run:
//   A  hand-written: undici Agent.stream() writing straight into the hijacked response (what
//      services/edge/src/routes/videos.ts does);
//   B  @fastify/reply-from.
// Measures full-download throughput, time to first byte of small ranges, and the relay's memory
// with 70 downloads whose clients never read (plus one normal download while they hang).
// Origin, relay A and relay B are each a child process (this file, forked with a mode argument),
// so a relay's RSS is its own and the client does not share a thread with anything it measures.
// Usage: node bench/clip-relay.mjs   (CLIP_BYTES=268435456 ROUNDS=3)
import { fork } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLIP_BYTES = Number(process.env.CLIP_BYTES || 256 * 2 ** 20);
const ROUNDS = Number(process.env.ROUNDS || 3);
const CHUNK = 64 * 1024;
const PAUSED_READERS = 70;
const PAUSE_MS = 3000;
const TTFB_SAMPLES = 50;
// Only what describes the bytes, as the gateway passes on.
const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (...parts) => process.stderr.write(`${parts.join(' ')}\n`);
/** @type {(headers: import('node:http').IncomingHttpHeaders) => any} */
const pick = (headers) => {
  const out = {};
  for (const name of PASSED_HEADERS) if (headers[name] !== undefined) out[name] = headers[name];
  return out;
};

const [mode, ...args] = process.argv.slice(2);
if (mode === 'origin') await origin();
else if (mode === 'relay') await relay(args[0], args[1]);
else await main();

/** The origin: one preallocated clip, single byte ranges, written in 64 KiB chunks with backpressure. */
async function origin() {
  const clip = randomFillSync(Buffer.allocUnsafe(CLIP_BYTES));
  let open = 0;
  let streaming = 0;
  let sent = 0;
  const server = createServer((req, res) => {
    if (req.url === '/stats') return res.end(JSON.stringify({ open, streaming, sent }));
    if (req.method !== 'GET' || req.url !== '/clip') {
      res.writeHead(404).end();
      return;
    }
    let start = 0;
    let end = CLIP_BYTES - 1;
    const range = req.headers.range;
    if (range !== undefined) {
      const m = /^bytes=(\d*)-(\d*)$/.exec(range);
      if (m && m[1] !== '') {
        start = Number(m[1]);
        if (m[2] !== '') end = Math.min(Number(m[2]), CLIP_BYTES - 1);
      } else if (m && m[2] !== '') {
        start = Math.max(0, CLIP_BYTES - Number(m[2]));
      }
      if (!m || start > end) {
        res.writeHead(416, { 'content-range': `bytes */${CLIP_BYTES}` }).end();
        return;
      }
    }
    const headers = { 'content-type': 'video/mp4', 'content-length': String(end - start + 1), 'accept-ranges': 'bytes' };
    if (range !== undefined) headers['content-range'] = `bytes ${start}-${end}/${CLIP_BYTES}`;
    res.writeHead(range === undefined ? 200 : 206, headers);
    streaming += 1;
    let done = false;
    const finish = () => {
      if (!done) streaming -= 1;
      done = true;
    };
    res.once('close', finish);
    let pos = start;
    const pump = () => {
      while (pos <= end) {
        if (res.destroyed) return;
        const next = Math.min(pos + CHUNK, end + 1);
        const ok = res.write(clip.subarray(pos, next));
        sent += next - pos;
        pos = next;
        if (!ok) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  server.on('connection', (socket) => {
    open += 1;
    socket.once('close', () => {
      open -= 1;
    });
  });
  server.listen(0, '127.0.0.1', () =>
    process.send({ url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}` }),
  );
  process.on('disconnect', () => process.exit(0));
}

/** One relay (kind "a" or "b") in its own process, with GET /mem for its memory after a GC. */
async function relay(kind, originUrl) {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/mem', async () => {
    globalThis.gc?.();
    return process.memoryUsage();
  });

  if (kind === 'a') {
    const { Agent } = await import('undici');
    const agent = new Agent({ connections: null, keepAliveTimeout: 30_000 });
    app.addHook('onClose', async () => agent.close());
    app.get('/a/clip', async (request, reply) => {
      const range = request.headers.range;
      try {
        // undici writes each body chunk into the response and pauses the origin socket while the
        // response is over its high-water mark: no Readable in between.
        await agent.stream(
          { origin: originUrl, path: '/clip', method: 'GET', headers: range ? { range } : {} },
          ({ statusCode, headers }) => {
            reply.hijack();
            reply.raw.writeHead(statusCode, pick(headers));
            return reply.raw;
          },
        );
      } catch (error) {
        // The client went away mid-body (or the origin did): nothing more can be said to it.
        if (reply.raw.headersSent) reply.raw.destroy();
        else throw error;
      }
      return reply;
    });
  } else {
    const { default: replyFrom } = await import('@fastify/reply-from');
    // Its default is an undici Agent capped at 128 connections per origin; lift the cap as in A.
    await app.register(replyFrom, {
      base: originUrl,
      undici: { connections: null, keepAliveTimeout: 30_000 },
      disableRequestLogging: true,
    });
    app.get('/b/clip', (_request, reply) => reply.from('/clip', { rewriteHeaders: pick }));
  }

  await app.listen({ host: '127.0.0.1', port: 0 });
  process.send({ url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (app.server.address()).port}` });
  process.on('disconnect', () => process.exit(0));
}

async function main() {
  const { Agent, request } = await import('undici');
  const self = fileURLToPath(import.meta.url);
  const children = [];
  process.on('exit', () => {
    for (const child of children) child.kill('SIGKILL');
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
  // A hang anywhere must not outlive the run.
  setTimeout(() => {
    log('clip-relay: gave up after 5 minutes');
    process.exit(1);
  }, 300_000).unref();

  const spawnChild = (childArgs, execArgv = []) =>
    new Promise((resolve, reject) => {
      const child = fork(self, childArgs, { execArgv, env: { ...process.env, CLIP_BYTES: String(CLIP_BYTES) } });
      children.push(child);
      child.once('message', (/** @type {any} */ m) => resolve({ child, url: m.url }));
      child.once('exit', (code) => reject(new Error(`${childArgs.join(' ')} exited with ${code}`)));
    });
  const source = await spawnChild(['origin']);
  const relays = {
    a: await spawnChild(['relay', 'a', source.url], ['--expose-gc']),
    b: await spawnChild(['relay', 'b', source.url], ['--expose-gc']),
  };
  const targets = [
    { key: 'direct', label: 'direct', url: `${source.url}/clip` },
    { key: 'a', label: 'hand-written (undici stream into the response)', url: `${relays.a.url}/a/clip`, base: relays.a.url },
    { key: 'b', label: '@fastify/reply-from', url: `${relays.b.url}/b/clip`, base: relays.b.url },
  ];

  const client = new Agent({ connections: null });
  const control = new Agent({ connections: 4 });
  /** @type {(url: string) => Promise<any>} */
  const getJson = async (url) => (await request(url, { dispatcher: control })).body.json();

  async function download(url) {
    const started = performance.now();
    const { statusCode, body } = await request(url, { dispatcher: client });
    let bytes = 0;
    for await (const chunk of body) bytes += chunk.length;
    const seconds = (performance.now() - started) / 1000;
    if (statusCode !== 200 || bytes !== CLIP_BYTES) throw new Error(`${url}: status ${statusCode}, ${bytes} bytes`);
    return bytes / 2 ** 20 / seconds;
  }

  async function ttfb(url) {
    const samples = [];
    for (let i = 0; i < TTFB_SAMPLES; i += 1) {
      const started = performance.now();
      const { statusCode, headers, body } = await request(url, { dispatcher: client, headers: { range: 'bytes=0-65535' } });
      let first;
      let bytes = 0;
      for await (const chunk of body) {
        first ??= performance.now();
        bytes += chunk.length;
      }
      if (statusCode !== 206 || bytes !== 65536 || headers['content-range'] !== `bytes 0-65535/${CLIP_BYTES}`) {
        throw new Error(`${url}: range answered ${statusCode}, ${bytes} bytes, ${headers['content-range']}`);
      }
      samples.push(first - started);
    }
    return samples;
  }

  // Raw sockets that send a GET and never read, as a stalled player or a slow phone would.
  function pausedReader(url) {
    const { hostname, port, pathname } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port) }, () => {
        socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
        socket.pause();
        socket.off('error', reject);
        socket.on('error', () => {});
        resolve(socket);
      });
      socket.once('error', reject);
    });
  }

  async function underPausedReaders(target) {
    const before = target.base ? await getJson(`${target.base}/mem`) : undefined;
    const originBefore = await getJson(`${source.url}/stats`);
    const sockets = await Promise.all(Array.from({ length: PAUSED_READERS }, () => pausedReader(target.url)));
    await sleep(PAUSE_MS);
    const after = target.base ? await getJson(`${target.base}/mem`) : undefined;
    const originDuring = await getJson(`${source.url}/stats`);
    const during = await download(target.url);
    for (const socket of sockets) socket.destroy();
    // Give the relay time to notice and let go of the origin before the next measurement.
    await sleep(500);
    const originAfter = await getJson(`${source.url}/stats`);
    const mib = (n) => n / 2 ** 20;
    return {
      during,
      rss: after && mib(after.rss - before.rss),
      heap: after && mib(after.heapUsed - before.heapUsed),
      buffers: after && mib(after.arrayBuffers - before.arrayBuffers),
      // What the origin had written for each paused reader: the clip's bytes held in socket
      // buffers and the relay, since none of them was read.
      pulledKiB: (originDuring.sent - originBefore.sent) / PAUSED_READERS / 1024,
      originDuring,
      originAfter,
    };
  }

  const results = Object.fromEntries(targets.map((t) => [t.key, { rate: [], ttfb: [], paused: [] }]));
  log(`clip ${(CLIP_BYTES / 2 ** 20).toFixed(0)} MiB, ${ROUNDS} rounds; warming up`);
  for (const t of targets) {
    await download(t.url);
    await ttfb(t.url);
  }
  for (let round = 0; round < ROUNDS; round += 1) {
    // Direct first, then A and B in turns, so neither relay always follows the other.
    const order = round % 2 === 0 ? targets : [targets[0], targets[2], targets[1]];
    for (const t of order) {
      const r = results[t.key];
      const rate = await download(t.url);
      const samples = await ttfb(t.url);
      const p = await underPausedReaders(t);
      r.rate.push(rate);
      r.ttfb.push(...samples);
      r.paused.push(p);
      log(
        `round ${round + 1} ${t.key.padEnd(6)} ${rate.toFixed(0)} MiB/s, TTFB p50 ${median(samples).toFixed(2)} ms;`,
        `with ${PAUSED_READERS} paused:`,
        p.rss === undefined ? '' : `RSS +${p.rss.toFixed(1)} MiB, heap +${p.heap.toFixed(2)} MiB, buffers +${p.buffers.toFixed(1)} MiB,`,
        `download ${p.during.toFixed(0)} MiB/s;`,
        `origin wrote ${p.pulledKiB.toFixed(0)} KiB per paused reader, streams open ${p.originDuring.streaming} during, ${p.originAfter.streaming} after`,
      );
    }
  }

  const fmt = (n, digits = 0) => (n === undefined ? '—' : n.toFixed(digits));
  const worst = (list) => (list[0] === undefined ? undefined : Math.max(...list));
  const lines = [
    `Clip ${(CLIP_BYTES / 2 ** 20).toFixed(0)} MiB, ${ROUNDS} rounds; fastify ${version('fastify')}, undici ${version('undici')}, @fastify/reply-from ${version('@fastify/reply-from')}.`,
    `Memory: the relay process's growth after ${PAUSED_READERS} paused readers held ${PAUSE_MS / 1000} s (after a GC), worst round.`,
    '',
    '| relay | throughput best (MiB/s) | throughput median (MiB/s) | TTFB median (ms) | RSS growth, 70 paused (MiB) | heap growth, 70 paused (MiB) | throughput during 70 paused, median (MiB/s) |',
    '|---|--:|--:|--:|--:|--:|--:|',
  ];
  for (const t of targets) {
    const r = results[t.key];
    lines.push(
      `| ${t.label} | ${fmt(Math.max(...r.rate))} | ${fmt(median(r.rate))} | ${fmt(median(r.ttfb), 2)} | ${fmt(worst(r.paused.map((p) => p.rss)), 1)} | ${fmt(worst(r.paused.map((p) => p.heap)), 2)} | ${fmt(median(r.paused.map((p) => p.during)))} |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  await client.close();
  await control.close();
  process.exit(0);
}

// Packages' exports hide package.json, so it is found next to the resolved entry point.
function version(name) {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (pkg.name === name) return pkg.version;
    } catch {}
    if (dir === dirname(dir)) return '?';
    dir = dirname(dir);
  }
}

function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
