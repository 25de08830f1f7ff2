// A small load generator over undici: closed loop at N connections, open loop at a fixed rate,
// and one request at a time. Latency is measured to the last byte; for streams also to the
// first body chunk (the first SSE event).
import { Pool } from 'undici';

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summary(latencies, firsts, errors, elapsedMs, gaps) {
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
    gaps,
  };
}

/** One request; resolves to {ms, firstMs, ok, chunkTimes}. */
async function once(pool, path, headers, body, stream, start = performance.now()) {
  const response = await pool.request({ method: 'POST', path, headers, body });
  let firstMs;
  const chunkTimes = [];
  for await (const chunk of response.body) {
    const now = performance.now() - start;
    firstMs ??= now;
    if (stream) chunkTimes.push(now);
    void chunk;
  }
  return { ms: performance.now() - start, firstMs: firstMs ?? 0, ok: response.statusCode === 200, chunkTimes };
}

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

/** `connections` requests always in flight, for `durationMs`. */
export async function closedLoop(t, { connections, durationMs, stream = false }) {
  const latencies = [];
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

/** Requests started at a fixed rate whatever the answers; latency counts from the scheduled start. */
export async function fixedRate(t, { rate, durationMs, stream = false }) {
  const latencies = [];
  const firsts = [];
  let errors = 0;
  const count = Math.floor((rate * durationMs) / 1000);
  const started = performance.now();
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

/** One request at a time; for streams also the arrival time of every chunk. */
export async function sequential(t, { count, stream = false }) {
  const latencies = [];
  const firsts = [];
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
