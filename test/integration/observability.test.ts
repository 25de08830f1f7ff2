import { parseConfig } from '@gateway/config';
import { ChatSimulator, VideoSimulator } from '@gateway/simulators';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from '../helpers/gateway.js';

// Observability end to end, on the all-in-one gateway: GET /metrics on the edge exposes every
// service's series after chat (plain and streamed) and video traffic, with bounded labels; a
// caller's traceparent reaches every service and names their log lines; every line written
// while a request is handled carries its request id.

const chatSim = new ChatSimulator({ flavor: 'openai', credential: 'oa-credential', models: ['gpt-sim'] });
const videoSim = new VideoSimulator({
  protocol: 'minimax',
  credential: 'mm-credential',
  models: ['MiniMax-H3'],
  queuedPolls: 1,
  runningPolls: 1,
});

function config(chatUrl: string, videoUrl: string): string {
  return `
groups:
  - id: obs-chat
    mode: chat
    aliases: [obs]
    max_input_tokens: 1000
    max_output_tokens: 100
    price: { input_per_mtok: 1, output_per_mtok: 2 }
    deployments: [{ provider: openai, model: gpt-sim, api_base: "${chatUrl}/v1", api_key_env: OA_KEY }]
  - id: obs-video
    mode: video
    video: { resolutions: [768P, 2K], default_resolution: 768P, seconds: [4, 15], ratios: ["16:9", "9:16", "1:1", "4:3", "3:4", "21:9"], image_input: first_frame }
    price: { per_second_by_resolution: { 768P: 0.08, 2K: 0.13 } }
    deployments: [{ provider: minimax, model: MiniMax-H3, api_base: "${videoUrl}", api_key_env: MM_KEY }]
video: { poll_interval_ms: 100 }
server: { key_cache_ttl_ms: 0 }
`;
}

/** Nano-dollars per token at 1 and 2 USD per million tokens. */
const INPUT_NANOS = 1000;
const OUTPUT_NANOS = 2000;
/** 8 seconds at 768P, 0.08 USD a second. */
const VIDEO_JOB_NANOS = 8 * 80_000_000;

let gateway: TestGateway;
let key: string;
const videoJobs: string[] = [];

beforeAll(async () => {
  const [chatUrl, videoUrl] = [await chatSim.listen(), await videoSim.listen()];
  gateway = await startTestGateway({
    config: parseConfig(config(chatUrl, videoUrl), 'observability-test'),
    env: { OA_KEY: 'oa-credential', MM_KEY: 'mm-credential' },
  });
  ({ key } = await gateway.createKey({ models: ['obs-chat', 'obs-video'], budget_usd: 100 }));
});
afterAll(async () => {
  await stopTestGateway(gateway);
  await chatSim.close();
  await videoSim.close();
});

function chat(options: { stream?: boolean; model?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return gateway.call('/v1/chat/completions', key, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: JSON.stringify({
      model: options.model ?? 'obs-chat',
      messages: [{ role: 'user', content: 'Hello there' }],
      ...(options.stream ? { stream: true } : {}),
    }),
  });
}

async function createVideo(headers: Record<string, string> = {}): Promise<Response> {
  const response = await gateway.call('/v1/videos', key, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'obs-video', prompt: 'A lighthouse at dusk', seconds: 8 }),
  });
  if (response.status === 200) videoJobs.push(((await response.clone().json()) as { id: string }).id);
  return response;
}

interface LogLine {
  service?: string;
  msg?: string;
  requestId?: string;
  traceId?: string;
  [field: string]: unknown;
}

function logLines(from = 0): LogLine[] {
  return gateway.logs.slice(from).flatMap((chunk) =>
    chunk
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as LogLine),
  );
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`unparsable metrics line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[name as string] = value as string;
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(): Promise<Sample[]> {
  const response = await fetch(metricsUrl());
  expect(response.status).toBe(200);
  return parseMetrics(await response.text());
}

function metricsUrl(): string {
  if (!gateway.metricsUrl) throw new Error('the test gateway serves no metrics');
  return gateway.metricsUrl;
}

/** The sum of a metric's samples whose labels include `labels`; undefined when there is none. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const matching = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return matching.length === 0 ? undefined : matching.reduce((sum, s) => sum + s.value, 0);
}

async function finishVideoJobs(): Promise<void> {
  for (const id of videoJobs) {
    await eventually(async () => {
      const job = (await (await gateway.call(`/v1/videos/${id}`, key)).json()) as { status: string };
      return job.status === 'completed';
    }, 10_000);
  }
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const traceparent = (traceId: string) => `00-${traceId}-00f067aa0ba902b7-01`;

describe('trace context and request ids', () => {
  it("carry a caller's traceparent through the gRPC hops into every service's log lines", async () => {
    const from = gateway.logs.length;
    const response = await chat({ headers: { traceparent: traceparent(TRACE_ID), 'x-request-id': 'obs-plain-1' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('obs-plain-1');
    await response.json();
    // The edge's line is written once the response has gone out.
    await eventually(() => logLines(from).some((l) => l.service === 'edge' && l.traceId === TRACE_ID));
    const traced = logLines(from).filter((l) => l.traceId === TRACE_ID);
    // Video too when this request is the one that loads the catalog of served groups.
    const services = new Set(traced.map((l) => l.service));
    for (const service of ['edge', 'chat', 'accounting']) expect(services).toContain(service);
    for (const line of traced) expect(line.requestId, JSON.stringify(line)).toBe('obs-plain-1');
    // The hop itself: chat and accounting handled their calls in the caller's trace.
    expect(traced.some((l) => l.service === 'chat' && l.msg === 'rpc handled' && l.rpc === 'CreateChatCompletion')).toBe(true);
    expect(traced.some((l) => l.service === 'accounting' && l.msg === 'rpc handled')).toBe(true);
  });

  it('do the same for a stream and for a video job', async () => {
    const streamTrace = '5bf92f3577b34da6a3ce929d0e0e4737';
    let from = gateway.logs.length;
    const stream = await chat({ stream: true, headers: { traceparent: traceparent(streamTrace), 'x-request-id': 'obs-stream-1' } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('x-request-id')).toBe('obs-stream-1');
    expect(await stream.text()).toContain('data: [DONE]');
    await eventually(() => logLines(from).some((l) => l.service === 'edge' && l.traceId === streamTrace));
    let traced = logLines(from).filter((l) => l.traceId === streamTrace);
    expect(new Set(traced.map((l) => l.service))).toEqual(new Set(['edge', 'chat', 'accounting']));
    expect(traced.some((l) => l.service === 'chat' && l.rpc === 'StreamChatCompletion')).toBe(true);
    for (const line of traced) expect(line.requestId).toBe('obs-stream-1');

    const videoTrace = '6bf92f3577b34da6a3ce929d0e0e4738';
    from = gateway.logs.length;
    const video = await createVideo({ traceparent: traceparent(videoTrace), 'x-request-id': 'obs-video-1' });
    expect(video.status).toBe(200);
    expect(video.headers.get('x-request-id')).toBe('obs-video-1');
    await eventually(() => logLines(from).some((l) => l.service === 'edge' && l.traceId === videoTrace));
    traced = logLines(from).filter((l) => l.traceId === videoTrace);
    expect(new Set(traced.map((l) => l.service))).toEqual(new Set(['edge', 'video', 'accounting']));
    expect(traced.some((l) => l.service === 'video' && l.msg === 'video job created')).toBe(true);
    for (const line of traced) expect(line.requestId, JSON.stringify(line)).toBe('obs-video-1');
  });

  it('start a trace when the caller sent none, and name the request in every line written while it is handled', async () => {
    await finishVideoJobs();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const from = gateway.logs.length;
    const response = await chat();
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    await response.json();
    await eventually(() => logLines(from).some((l) => l.service === 'edge' && l.requestId === requestId));
    // The spend consumer runs apart from any request, by design: it handles events of many.
    const handling = logLines(from).filter((l) => !l.msg?.startsWith('spend event'));
    expect(handling.length).toBeGreaterThanOrEqual(3);
    for (const line of handling) expect(line.requestId, JSON.stringify(line)).toBe(requestId);
    const traceIds = new Set(handling.map((l) => l.traceId));
    expect(traceIds.size).toBe(1);
    const [traceId] = [...traceIds];
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(handling.map((l) => l.service))).toEqual(new Set(['edge', 'chat', 'accounting']));
  });

  it("keep a caller's request id only when it looks like one", async () => {
    const response = await chat({ headers: { 'x-request-id': 'bad id with spaces' } });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await response.json();
  });
});

describe('GET /metrics', () => {
  it('exposes every series after chat and video traffic, with bounded labels', async () => {
    for (let i = 0; i < 3; i += 1) expect((await chat()).status).toBe(200);
    for (let i = 0; i < 2; i += 1) {
      const stream = await chat({ stream: true });
      expect(stream.status).toBe(200);
      await stream.text();
    }
    expect((await createVideo()).status).toBe(200);
    await finishVideoJobs();
    // Values a caller typed never become labels.
    expect((await chat({ model: 'no-such-model' })).status).toBe(401);
    expect((await gateway.call('/v1/nope/abc123', key)).status).toBe(404);
    expect((await gateway.call('/v1/videos/video_0123456789abcdef', key)).status).toBe(404);

    const response = await fetch(metricsUrl());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4; charset=utf-8/);
    const text = await response.text();
    for (const typed of ['no-such-model', 'abc123', 'video_0123456789abcdef', 'nope']) expect(text).not.toContain(typed);

    // Every plain and streamed chat call so far (4 before this test, 5 in it), all served.
    const chatCalls = chatSim.totals.calls;
    expect(chatCalls).toBeGreaterThanOrEqual(9);
    // Spend is applied by the consumer after the answers, within its batch window, and its
    // events leave the outbox as the batch commits: wait until all of it is in and out.
    const chatSpend = chatSim.totals.prompt_tokens * INPUT_NANOS + chatSim.totals.completion_tokens * OUTPUT_NANOS;
    let samples: Sample[] = [];
    await eventually(async () => {
      samples = await scrape();
      return (
        value(samples, 'gateway_spend_nano_usd_total', { group: 'obs-chat', kind: 'chat' }) === chatSpend &&
        value(samples, 'gateway_spend_nano_usd_total', { group: 'obs-video', kind: 'video' }) === videoJobs.length * VIDEO_JOB_NANOS &&
        value(samples, 'gateway_bus_outbox_depth') === 0
      );
    }, 5000);

    const chatRoute = { route: '/v1/chat/completions', group: 'obs-chat', status: '200' };
    expect(value(samples, 'gateway_http_requests_total', chatRoute)).toBe(chatCalls);
    expect(value(samples, 'gateway_http_request_duration_seconds_count', chatRoute)).toBe(chatCalls);
    expect(value(samples, 'gateway_http_request_duration_seconds_bucket', { ...chatRoute, le: '+Inf' })).toBe(chatCalls);
    expect(value(samples, 'gateway_http_requests_total', { route: '/v1/chat/completions', group: '', status: '401' })).toBe(1);
    expect(value(samples, 'gateway_http_requests_total', { route: 'unmatched', group: '', status: '404' })).toBe(1);
    expect(value(samples, 'gateway_http_requests_total', { route: '/v1/videos', group: 'obs-video', status: '200' })).toBe(
      videoJobs.length,
    );
    expect(
      value(samples, 'gateway_http_requests_total', { route: '/v1/videos/:id', group: 'obs-video', status: '200' }),
    ).toBeGreaterThanOrEqual(videoJobs.length);
    expect(value(samples, 'gateway_http_requests_total', { route: '/v1/videos/:id', group: '', status: '404' })).toBe(1);
    const groups = new Set(samples.filter((s) => s.name === 'gateway_http_requests_total').map((s) => s.labels.group));
    expect([...groups].sort()).toEqual(['', 'obs-chat', 'obs-video']);

    // gRPC, per service.
    const handled = (service: string, method: string, code = 'OK') =>
      value(samples, 'gateway_grpc_server_handled_total', { service, method, code });
    expect(handled('chat', 'CreateChatCompletion')).toBeGreaterThanOrEqual(6);
    expect(handled('chat', 'StreamChatCompletion')).toBeGreaterThanOrEqual(3);
    expect((handled('chat', 'CreateChatCompletion') ?? 0) + (handled('chat', 'StreamChatCompletion') ?? 0)).toBe(chatCalls);
    expect(handled('video', 'CreateVideo')).toBe(videoJobs.length);
    expect(handled('video', 'GetVideo')).toBeGreaterThanOrEqual(videoJobs.length);
    expect(handled('video', 'GetVideo', 'NOT_FOUND')).toBe(1);
    expect(handled('accounting', 'AuthenticateKey')).toBeGreaterThanOrEqual(chatCalls);
    expect(value(samples, 'gateway_grpc_server_handling_seconds_count', { service: 'chat', method: 'CreateChatCompletion' })).toBe(
      handled('chat', 'CreateChatCompletion'),
    );
    expect(value(samples, 'gateway_grpc_server_handling_seconds_count', { service: 'accounting' })).toBeGreaterThan(0);

    // Upstream time in chat, and the gateway's own time at the edge, once per served call.
    expect(value(samples, 'gateway_upstream_duration_seconds_count', { group: 'obs-chat', provider: 'openai', outcome: 'ok' })).toBe(
      chatCalls,
    );
    const upstreamSeconds =
      value(samples, 'gateway_upstream_duration_seconds_sum', { group: 'obs-chat', provider: 'openai', outcome: 'ok' }) ?? 0;
    expect(upstreamSeconds).toBeGreaterThan(0);
    expect(value(samples, 'gateway_overhead_seconds_count', { route: '/v1/chat/completions' })).toBe(chatCalls);
    const overheadSeconds = value(samples, 'gateway_overhead_seconds_sum', { route: '/v1/chat/completions' }) ?? -1;
    const totalSeconds = value(samples, 'gateway_http_request_duration_seconds_sum', chatRoute) ?? 0;
    expect(overheadSeconds).toBeGreaterThan(0);
    expect(overheadSeconds).toBeLessThan(totalSeconds);

    // Tokens by group and kind, as metered: the simulator's own totals.
    expect(value(samples, 'gateway_tokens_total', { group: 'obs-chat', kind: 'prompt' })).toBe(chatSim.totals.prompt_tokens);
    expect(value(samples, 'gateway_tokens_total', { group: 'obs-chat', kind: 'completion' })).toBe(chatSim.totals.completion_tokens);
    expect(value(samples, 'gateway_tokens_total', { group: 'obs-chat', kind: 'reasoning' })).toBeGreaterThanOrEqual(0);

    // Video jobs by the statuses they entered.
    const jobs = (status: string) => value(samples, 'gateway_video_jobs_total', { group: 'obs-video', status });
    expect(jobs('queued')).toBe(videoJobs.length);
    expect(jobs('in_progress')).toBe(videoJobs.length);
    expect(jobs('completed')).toBe(videoJobs.length);
    expect(jobs('failed')).toBeUndefined();

    // The bus, read at scrape time: the outbox is empty once spend is in, and the consumer keeps up.
    expect(value(samples, 'gateway_bus_outbox_depth')).toBe(0);
    expect(value(samples, 'gateway_bus_consumer_lag', { consumer: 'accounting-spend' })).toBe(0);

    // Node's own process metrics, once.
    expect(value(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text.match(/^# TYPE process_cpu_user_seconds_total /gm)).toHaveLength(1);
  });

  it('needs no key, on its own port; the public port does not serve it unless asked', async () => {
    const response = await fetch(metricsUrl(), { headers: { authorization: 'Bearer sk-not-a-real-key-000000000000' } });
    expect(response.status).toBe(200);
    await response.text();
    expect(new URL(metricsUrl()).port).not.toBe(new URL(gateway.url).port);
    expect((await fetch(`${gateway.url}/metrics`)).status).toBe(404);
    const open = await startTestGateway({ env: { METRICS_ON_PUBLIC_PORT: 'true' } });
    try {
      const publicScrape = await fetch(`${open.url}/metrics`);
      expect(publicScrape.status).toBe(200);
      expect(await publicScrape.text()).toContain('gateway_http_requests_total');
    } finally {
      await stopTestGateway(open);
    }
  });
});
