// A small load generator over undici: closed loop at N connections, open loop at a fixed rate,
// and one request at a time. Latency is measured to the last byte; for streams also to the
// first body chunk (the first SSE event).
import { Pool } from 'undici';

/**
 * What one load run measured (wrk.mjs gives the same shape, without first-chunk times).
 * @typedef {object} Summary
 * @property {number} requests answered with 200
 * @property {number} errors other statuses and failed requests
 * @property {number} rps
 * @property {number} p50 latency to the last byte, ms
 * @property {number} p99
 * @property {number} firstP50 latency to the first body chunk, ms
 * @property {number} firstP99
 * @property {number[][]} [chunkTimes] `sequential` on streams: each call's chunk arrival times, ms from its start
 */

/**
 * Where the load goes: a pool to the origin and one POST.
 * @typedef {object} Target
 * @property {Pool} pool
 * @property {string} url the origin
 * @property {string} path
 * @property {Record<string, string>} headers
 * @property {string} body
 */

/** @typedef {{ ms: number, firstMs: number, ok: boolean, chunkTimes: number[] }} Call */

/**
 * @param {number[]} sorted ascending
 * @param {number} p 0-100
 * @returns {number} NaN when there are none
 */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * @param {number[]} latencies
 * @param {number[]} firsts
 * @param {number} errors
 * @param {number} elapsedMs
 * @returns {Summary}
 */
function summary(latencies, firsts, errors, elapsedMs) {
  latencies.sort((a, b) => a - b);
  firsts.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    rps: latencies.length / (elapsedMs / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    firstP50: percentile(firsts, 50),
    firstP99: percentile(firsts, 99),
  };
}

/**
 * One request; resolves to {ms, firstMs, ok, chunkTimes}.
 * @param {Pool} pool
 * @param {string} path
 * @param {Record<string, string>} headers
 * @param {string} body
 * @param {boolean} stream
 * @param {number} [start]
 * @returns {Promise<Call>}
 */
async function once(pool, path, headers, body, stream, start = performance.now()) {
  const response = await pool.request({ method: 'POST', path, headers, body });
  /** @type {number | undefined} */
  let firstMs;
  /** @type {number[]} */
  const chunkTimes = [];
  for await (const chunk of response.body) {
    const now = performance.now() - start;
    firstMs ??= now;
    if (stream) chunkTimes.push(now);
    void chunk;
  }
  return { ms: performance.now() - start, firstMs: firstMs ?? 0, ok: response.statusCode === 200, chunkTimes };
}

/**
 * @param {string} url the origin, with a path prefix if any
 * @param {string} path appended to the prefix
 * @param {Record<string, string>} headers besides content-type: application/json
 * @param {string} body
 * @returns {Target}
 */
export function target(url, path, headers, body) {
  const base = new URL(url);
  return {
    pool: new Pool(base.origin, { connections: 256, pipelining: 1 }),
    url: base.origin,
    path: `${base.pathname.replace(/\/$/, '')}${path}`,
    headers: { 'content-type': 'application/json', ...headers },
    body,
  };
}

/**
 * `connections` requests always in flight, for `durationMs`.
 * @param {Target} t
 * @param {{ connections: number, durationMs: number, stream?: boolean }} options
 * @returns {Promise<Summary>}
 */
export async function closedLoop(t, { connections, durationMs, stream = false }) {
  /** @type {number[]} */
  const latencies = [];
  /** @type {number[]} */
  const firsts = [];
  let errors = 0;
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        try {
          const r = await once(t.pool, t.path, t.headers, t.body, stream);
          if (r.ok) {
            latencies.push(r.ms);
            firsts.push(r.firstMs);
          } else errors += 1;
        } catch {
          errors += 1;
        }
      }
    }),
  );
  return summary(latencies, firsts, errors, performance.now() - started);
}

/**
 * Requests started at a fixed rate whatever the answers; latency counts from the scheduled start.
 * @param {Target} t
 * @param {{ rate: number, durationMs: number, stream?: boolean }} options
 * @returns {Promise<Summary>}
 */
export async function fixedRate(t, { rate, durationMs, stream = false }) {
  /** @type {number[]} */
  const latencies = [];
  /** @type {number[]} */
  const firsts = [];
  let errors = 0;
  const count = Math.floor((rate * durationMs) / 1000);
  const started = performance.now();
  /** @type {Promise<void>[]} */
  const pending = [];
  for (let i = 0; i < count; i += 1) {
    const at = started + (i * 1000) / rate;
    const wait = at - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      once(t.pool, t.path, t.headers, t.body, stream, at).then(
        (r) => {
          if (r.ok) {
            latencies.push(r.ms);
            firsts.push(r.firstMs);
          } else errors += 1;
        },
        () => {
          errors += 1;
        },
      ),
    );
  }
  await Promise.all(pending);
  return summary(latencies, firsts, errors, performance.now() - started);
}

/**
 * One request at a time; for streams also the arrival time of every chunk.
 * @param {Target} t
 * @param {{ count: number, stream?: boolean }} options
 * @returns {Promise<Summary>}
 */
export async function sequential(t, { count, stream = false }) {
  /** @type {number[]} */
  const latencies = [];
  /** @type {number[]} */
  const firsts = [];
  /** @type {number[][]} */
  const chunkTimes = [];
  let errors = 0;
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    try {
      const r = await once(t.pool, t.path, t.headers, t.body, stream);
      if (r.ok) {
        latencies.push(r.ms);
        firsts.push(r.firstMs);
        chunkTimes.push(r.chunkTimes);
      } else errors += 1;
    } catch {
      errors += 1;
    }
  }
  const result = summary(latencies, firsts, errors, performance.now() - started);
  result.chunkTimes = chunkTimes;
  return result;
}
