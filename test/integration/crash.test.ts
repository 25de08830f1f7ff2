import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatSimulator } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayProcess, spawnGateway } from '../helpers/process.js';
import { freePort } from '../helpers/wait.js';

// kill -9 of a real `gateway start` (one process, in-process bus, embedded store) while chat
// calls are in flight: after a restart on the same data folder the ledger holds every call that
// was answered 200, and nothing twice, and the key's budget still holds. Every call has the same
// usage, so the exact spend is (ledger requests) × C.

const ADMIN = 'crash-admin-token-0123456789';
const CREDENTIAL = 'crash-upstream-credential';
const GROUP = 'crash';

// The simulator counts one prompt token per four characters and one completion token per word.
const PROMPT = 'Count to three!!'; // 16 characters: 4 prompt tokens
const REPLY = 'one two three'; // 3 completion tokens
const PROMPT_TOKENS = 4;
const COMPLETION_TOKENS = 3;
// USD per million tokens with three decimals: whole nano-dollars per token. The output price
// dominates, so the worst case a call holds (prompt estimated high, max_tokens = the reply's
// length) is within 0.5% of its real cost: calls whose spend is not applied yet hold about what
// they will cost, and the budget sizes below do not depend on how far accounting lags.
const INPUT_PER_MTOK = 0.007; // 7 nano-dollars per token
const OUTPUT_PER_MTOK = 12.345; // 12,345 nano-dollars per token
const INPUT_NANOS = 7;
const OUTPUT_NANOS = 12_345;
/** What every billed call costs, in nano-dollars. */
const C = PROMPT_TOKENS * INPUT_NANOS + COMPLETION_TOKENS * OUTPUT_NANOS; // 37,063
/** The worst case the gateway holds per call: prompt estimated at ceil(bytes / 2) + 16 per message, plus max_tokens. */
const W = (Math.ceil(PROMPT.length / 2) + 16) * INPUT_NANOS + COMPLETION_TOKENS * OUTPUT_NANOS; // 37,203

const WORKERS = 8;
/** Each worker starts at most one call per PACE_MS, so the number of calls before the kill is bounded whatever the machine. */
const PACE_MS = 16;
const UPSTREAM_DELAY_MS = 4;
const KILL_AFTER_MS = 1000 + Math.floor(Math.random() * 500);
/** Calls expected before the kill at full pace over ~1.25 s; the budget fits about 1.5× that. */
const EXPECTED_BEFORE_KILL = Math.round((WORKERS * 1250) / PACE_MS);
const BUDGET_NANOS = Math.round(1.5 * EXPECTED_BEFORE_KILL) * C;

const sim = new ChatSimulator({ flavor: 'openai', credential: CREDENTIAL, models: ['m'], reply: REPLY, record: false });
// A few milliseconds upstream per call (the faults queue is used one entry per request), so calls are in flight at the kill.
sim.fail(...Array.from({ length: 20_000 }, () => ({ delayMs: UPSTREAM_DELAY_MS })));

let dir: string;
let env: NodeJS.ProcessEnv;
const children: ChildProcess[] = [];
let gatewayUrl: string | undefined;
let secret: string | undefined;
/**
 * What the killed process left reserved (0 when holds do not survive a restart). A budget lease
 * held in accounting by a process that died is released by accounting's sweep only once it is
 * LEASE_MAX_AGE_MS (15 min) old, the sweep running every 60 s: far longer than a test may wait,
 * so the restart's figures are taken once they are stable, and this amount is allowed for.
 */
let stranded = 0;

function startGateway(): Promise<GatewayProcess> {
  return spawnGateway(env, children, 10_000);
}

function exited(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done, reject) => {
    const timer = setTimeout(() => reject(new Error(`process ${child.pid} did not exit in ${ms} ms`)), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Exact nano-dollars of a USD amount as JSON carries it (a number with at most nine decimals, or a decimal string). */
function nanos(usd: number | string): number {
  const text = typeof usd === 'number' ? usd.toFixed(9) : usd.trim();
  const match = /^(\d+)(?:\.(\d{1,9}))?$/.exec(text);
  if (!match) throw new Error(`not a USD amount with at most nine decimals: ${String(usd)}`);
  if (typeof usd === 'number' && Math.abs(usd * 1e9 - Number(text.replace('.', ''))) > 1e-3 * Math.max(1, usd * 1e9)) {
    throw new Error(`USD amount ${usd} is not a whole number of nano-dollars`);
  }
  return Number(BigInt(match[1]!) * 1_000_000_000n + BigInt((match[2] ?? '').padEnd(9, '0')));
}

interface UsageFigures {
  limit: number;
  spent: number;
  reserved: number;
  requests: number;
  groupSpent: number;
}

async function usage(url: string, key: string): Promise<UsageFigures> {
  const response = await fetch(`${url}/v1/usage`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(3000) });
  if (response.status !== 200) throw new Error(`GET /v1/usage answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as {
    budget: { limit_usd: number; spent_usd: number; reserved_usd: number };
    by_model: { model: string; spent_usd: number; requests: number }[];
  };
  const group = body.by_model.find((entry) => entry.model === GROUP);
  return {
    limit: nanos(body.budget.limit_usd),
    spent: nanos(body.budget.spent_usd),
    reserved: nanos(body.budget.reserved_usd),
    requests: group?.requests ?? 0,
    groupSpent: group ? nanos(group.spent_usd) : 0,
  };
}

/**
 * Waits until spend stops moving: spent, the group's requests and reserved unchanged for
 * `stableMs`, and reserved at most `reservedAtMost` (what the killed process left held: a budget
 * lease it held stays reserved until accounting's sweep, which is minutes away, see below).
 * Bounded; the last figures are in the error when it does not settle.
 */
async function settled(url: string, key: string, { stableMs = 1000, maxMs = 8000, reservedAtMost = Infinity } = {}): Promise<UsageFigures> {
  const end = Date.now() + maxMs;
  let last = await usage(url, key);
  let since = Date.now();
  for (;;) {
    await sleep(100);
    const now = await usage(url, key);
    if (now.spent !== last.spent || now.requests !== last.requests || now.groupSpent !== last.groupSpent || now.reserved !== last.reserved)
      since = Date.now();
    last = now;
    if (now.reserved <= reservedAtMost && Date.now() - since >= stableMs) return now;
    if (Date.now() > end) throw new Error(`spend did not settle in ${maxMs} ms: ${JSON.stringify(now)}`);
  }
}

type Outcome =
  | { kind: 'ok'; id: string; usage: { prompt_tokens: number; completion_tokens: number } }
  | { kind: 'status'; status: number; code: string | undefined }
  | { kind: 'network'; error: string };

/** Outcomes counted by kind, status and code (for failure messages). */
function tally(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) {
    const label = o.kind === 'status' ? `${o.status} ${o.code ?? ''}` : o.kind === 'network' ? `network ${o.error}` : 'ok';
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}

async function chatOnce(url: string, key: string): Promise<Outcome> {
  try {
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: GROUP, messages: [{ role: 'user', content: PROMPT }], max_tokens: COMPLETION_TOKENS }),
      signal: AbortSignal.timeout(5000),
    });
    const text = await response.text();
    if (response.status !== 200) {
      let code: string | undefined;
      try {
        code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
      } catch {
        /* not JSON */
      }
      return { kind: 'status', status: response.status, code };
    }
    const body = JSON.parse(text) as { id: string; usage: { prompt_tokens: number; completion_tokens: number } };
    return { kind: 'ok', id: body.id, usage: body.usage };
  } catch (error) {
    // A connection the killed process dropped, or a body cut short: not an answer.
    return { kind: 'network', error: String((error as { cause?: unknown }).cause ?? error) };
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gateway-crash-'));
  const simUrl = await sim.listen();
  await writeFile(
    join(dir, 'gateway.yaml'),
    `
groups:
  - id: ${GROUP}
    mode: chat
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: ${INPUT_PER_MTOK}, output_per_mtok: ${OUTPUT_PER_MTOK} }
    deployments: [{ provider: openai, model: m, api_base: "${simUrl}/v1", api_key_env: CRASH_UPSTREAM_KEY }]
router: { retries: 0 }
`,
  );
  env = {
    ...process.env,
    GATEWAY_CONFIG: join(dir, 'gateway.yaml'),
    GATEWAY_DATA_DIR: join(dir, 'data'),
    ADMIN_TOKEN: ADMIN,
    CRASH_UPSTREAM_KEY: CREDENTIAL,
    PORT: String(await freePort()),
    METRICS_PORT: '0',
    HOST: '127.0.0.1',
    // The start is detected by its 'gateway ready' line (info).
    LOG_LEVEL: 'info',
  };
  delete env.NATS_URL;
  delete env.MONGODB_URI;
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  delete env.OTEL_TRACES_EXPORTER;
});

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await Promise.all(children.map((child) => exited(child, 5000).catch(() => undefined)));
  await sim.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('kill -9 of the one-process gateway', () => {
  it('loses no spend of calls answered 200 and bills none twice', async () => {
    const first = await startGateway();
    const created = await fetch(`${first.url}/admin/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'crash', models: [GROUP], budget_usd: BUDGET_NANOS / 1e9 }),
      signal: AbortSignal.timeout(3000),
    });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };
    secret = key;

    // A steady stream of plain calls from WORKERS workers; SIGKILL after ~1-1.5 s, mid-stream.
    const answered: { id: string; usage: { prompt_tokens: number; completion_tokens: number } }[] = [];
    const refusedBeforeKill: Outcome[] = [];
    let killedAt = 0;
    let inFlight = 0;
    let inFlightAtKill = 0;
    const worker = async () => {
      let next = Date.now();
      while (killedAt === 0) {
        const wait = next - Date.now();
        if (wait > 0) await sleep(wait);
        if (killedAt !== 0) break;
        next = Math.max(next + PACE_MS, Date.now());
        inFlight += 1;
        const outcome = await chatOnce(first.url, key);
        inFlight -= 1;
        if (outcome.kind === 'ok') answered.push(outcome);
        else if (killedAt === 0) refusedBeforeKill.push(outcome);
      }
    };
    const died = new Promise<number>((done) => first.child.once('exit', () => done(sim.totals.calls)));
    const workers = Array.from({ length: WORKERS }, () => worker());
    await sleep(KILL_AFTER_MS);
    // Kill while calls are in flight (bounded: with 8 paced workers some almost always are).
    for (let i = 0; i < 200 && inFlight === 0; i += 1) await sleep(1);
    inFlightAtKill = inFlight;
    first.child.kill('SIGKILL');
    killedAt = Date.now();
    /** Upstream calls the simulator had fully answered when the process was gone: an upper bound on what can be billed. */
    const servedAtKill = await Promise.race([
      died,
      sleep(5000).then(() => {
        throw new Error('the killed gateway did not exit');
      }),
    ]);
    await Promise.all(workers);
    const answeredBeforeKill = answered.length;

    // Restart on the same data folder, port and configuration; wait until spend stops moving.
    const second = await startGateway();
    gatewayUrl = second.url;
    // The new process has made no calls, so anything still reserved is held for the dead one.
    const after = await settled(second.url, key, { stableMs: 1000, maxMs: 8000 });
    stranded = after.reserved;

    const figures = {
      killAfterMs: KILL_AFTER_MS,
      inFlightAtKill,
      answered200: answeredBeforeKill,
      simulatorServed: servedAtKill,
      ledgerRequests: after.requests,
      spentNanos: after.spent,
      expectedSpentNanos: after.requests * C,
      lost: Math.max(0, answeredBeforeKill - after.requests),
      refusedBeforeKill: refusedBeforeKill.length,
      reservedAfterRestart: after.reserved,
    };
    console.log(`crash figures: ${JSON.stringify(figures)}`);

    // The stream itself was sound: every answer carried the known usage under its own id, and
    // nothing was refused before the kill (the budget was not the limit).
    expect(refusedBeforeKill.length, `calls refused or failed before the kill: ${JSON.stringify(tally(refusedBeforeKill))}`).toBe(0);
    expect(answeredBeforeKill).toBeGreaterThan(0);
    expect(inFlightAtKill, 'calls in flight at the kill').toBeGreaterThan(0);
    for (const { usage: u } of answered) expect([u.prompt_tokens, u.completion_tokens]).toEqual([PROMPT_TOKENS, COMPLETION_TOKENS]);
    expect(new Set(answered.map((a) => a.id)).size).toBe(answeredBeforeKill);

    // 0 lost: every call answered 200 is in the ledger.
    expect(
      after.requests,
      `spend lost across kill -9: ${answeredBeforeKill} calls answered 200, ${after.requests} in the ledger`,
    ).toBeGreaterThanOrEqual(answeredBeforeKill);
    // Nothing twice, nothing invented: at most one ledger entry per upstream answer.
    expect(after.requests, `more ledger entries than upstream answers (${servedAtKill})`).toBeLessThanOrEqual(servedAtKill);
    // Exact: spend is the ledger's requests times the one price.
    expect(after.spent).toBe(after.requests * C);
    expect(after.groupSpent).toBe(after.requests * C);
    expect(after.limit).toBe(BUDGET_NANOS);
    expect(after.spent + after.reserved).toBeLessThanOrEqual(BUDGET_NANOS);
  }, 22_000);

  it('keeps the key within its budget after the restart', async () => {
    expect(gatewayUrl, 'the restarted gateway (previous test)').toBeDefined();
    const url = gatewayUrl!;
    const key = secret!;
    const began = Date.now();
    const start = await settled(url, key, { stableMs: 300, maxMs: 4000, reservedAtMost: stranded });
    let successes = 0;
    const unexpected: Outcome[] = [];

    // Racing workers until the budget refuses one.
    let refused = false;
    const deadline = Date.now() + 8000;
    const maxCalls = Math.ceil((BUDGET_NANOS - start.spent) / C) + 50;
    let calls = 0;
    const worker = async () => {
      while (!refused && Date.now() < deadline && calls < maxCalls) {
        calls += 1;
        const outcome = await chatOnce(url, key);
        if (outcome.kind === 'ok') successes += 1;
        else if (outcome.kind === 'status' && outcome.status === 422 && outcome.code === 'budget_exceeded') refused = true;
        else unexpected.push(outcome);
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, () => worker()));
    const raced = { calls, successes, ms: Date.now() - began };
    expect(unexpected.length, `unexpected answers: ${JSON.stringify(tally(unexpected))}`).toBe(0);
    expect(refused, `no 422 budget_exceeded after ${calls} calls`).toBe(true);

    // Money the racing calls held beyond their real cost comes back as they settle, so a later
    // call may still fit: once everything has settled, call one at a time until refused; done
    // when a round's first call is refused (nothing in flight or held then).
    let terminal = false;
    let rounds = 0;
    for (let round = 0; round < 20 && !terminal; round += 1) {
      rounds += 1;
      await settled(url, key, { stableMs: 300, maxMs: 5000, reservedAtMost: stranded });
      for (let i = 0; i < 100; i += 1) {
        const outcome = await chatOnce(url, key);
        if (outcome.kind === 'ok') {
          successes += 1;
          continue;
        }
        if (outcome.kind === 'status' && outcome.status === 422 && outcome.code === 'budget_exceeded') terminal = i === 0;
        else unexpected.push(outcome);
        break;
      }
      expect(unexpected.length, `unexpected answers: ${JSON.stringify(tally(unexpected))}`).toBe(0);
    }
    expect(terminal, 'a refusal that holds once everything has settled').toBe(true);

    // After that, no call succeeds.
    for (let i = 0; i < 3; i += 1) {
      const outcome = await chatOnce(url, key);
      expect(outcome).toMatchObject({ kind: 'status', status: 422, code: 'budget_exceeded' });
    }

    const end = await settled(url, key, { stableMs: 300, maxMs: 5000, reservedAtMost: stranded });
    console.log(
      `budget figures: ${JSON.stringify({ budgetNanos: BUDGET_NANOS, stranded, endReserved: end.reserved, startSpent: start.spent, startRequests: start.requests, raced, rounds, successes, endSpent: end.spent, endRequests: end.requests, ms: Date.now() - began })}`,
    );
    expect(end.spent).toBeLessThanOrEqual(BUDGET_NANOS);
    expect(end.spent + end.reserved).toBeLessThanOrEqual(BUDGET_NANOS);
    // Refused only when the next call's worst case did not fit (beside what the dead process still holds).
    expect(BUDGET_NANOS - end.spent - end.reserved).toBeLessThan(W);
    // Every success after the restart billed exactly once.
    expect(end.requests).toBe(start.requests + successes);
    expect(end.spent).toBe(end.requests * C);
  }, 20_000);
});
