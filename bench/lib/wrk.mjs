// Closed-loop saturation with wrk (Debian's `wrk`), a C load generator that takes far less CPU
// than a JavaScript one on the same cores, so the figures compare with other published runs.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** @returns {Promise<boolean>} whether `wrk` is installed */
export async function wrkAvailable() {
  try {
    await run('wrk', ['--version']).catch((/** @type {{ stdout?: string }} */ e) => {
      if (!String(e.stdout ?? '').includes('wrk')) throw e;
    });
    return true;
  } catch {
    return false;
  }
}

/** @param {string} text a wrk duration (`812.00us`, `1.20ms`, `2.00s`) @returns {number} milliseconds */
function ms(text) {
  const m = /([\d.]+)(us|ms|s)/.exec(text);
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
}

/**
 * wrk at `connections` for `durationMs` against a POST with `body`; same result shape as load.mjs.
 * @param {{ url: string, path: string, headers: Record<string, string>, body: string }} target
 * @param {{ connections: number, durationMs: number }} options
 * @returns {Promise<import('./load.mjs').Summary>}
 */
export async function wrkClosedLoop({ url, path, headers, body }, { connections, durationMs }) {
  const dir = mkdtempSync(join(tmpdir(), 'wrk-'));
  try {
    const script = join(dir, 'post.lua');
    const lines = ['wrk.method = "POST"', `wrk.body = ${JSON.stringify(body)}`];
    for (const [k, v] of Object.entries(headers)) lines.push(`wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`);
    writeFileSync(script, `${lines.join('\n')}\n`);
    const { stdout } = await run('wrk', [
      '-t1',
      `-c${connections}`,
      `-d${Math.round(durationMs / 1000)}s`,
      '--latency',
      '-s',
      script,
      `${url}${path}`,
    ]);
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
    const requests = Number(/(\d+) requests in/.exec(stdout)?.[1]);
    const errors =
      Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0) +
      [...stdout.matchAll(/(connect|read|write|timeout) (\d+)/g)].reduce((s, m) => s + Number(m[2]), 0);
    return {
      requests,
      errors,
      rps,
      p50: ms(/50%\s+(\S+)/.exec(stdout)?.[1] ?? ''),
      p99: ms(/99%\s+(\S+)/.exec(stdout)?.[1] ?? ''),
      firstP50: NaN,
      firstP99: NaN,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
