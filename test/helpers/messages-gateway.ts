import Anthropic from '@anthropic-ai/sdk';
import { parseConfig } from '@gateway/config';
import { ChatSimulator } from '@gateway/simulators';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { eventually, startTestGateway, stopTestGateway, type TestGateway } from './gateway.js';

// The gateway the Messages API tests run against, and their helpers: the built-in demo
// provider and simulators speaking OpenAI's and DeepSeek's chat protocols, plus an upstream that
// always stops at its output limit. A test file calls useMessagesGateway() once.

export const plainSim = new ChatSimulator({
  flavor: 'openai',
  credential: 'oa-credential',
  models: ['gpt-sim', 'gpt-vision'],
  visionModels: ['gpt-vision'],
  record: true,
});
export const thinkingSim = new ChatSimulator({ flavor: 'deepseek', credential: 'ds-credential', models: ['deepseek-sim'], record: true });
/** Spaced chunks, so a cut or a caller leaving comes after the stream reached the caller. */
export const spacedSim = new ChatSimulator({ flavor: 'openai', credential: 'oa-credential', models: ['gpt-sim'], chunkDelayMs: 30 });

/**
 * An upstream that stops every answer at its output limit (finish_reason `length`), plain and
 * streamed: the chat simulators always finish with `stop` or `tool_calls`.
 */
export const lengthRequests: Record<string, unknown>[] = [];
const lengthUpstream: Server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    lengthRequests.push(body);
    const base = { id: 'upstream-length', created: Math.floor(Date.now() / 1000), model: body.model };
    const usage = { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 };
    if (body.stream !== true) {
      const text = JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Cut off right' }, finish_reason: 'length' }],
        usage,
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`);
    chunk([{ index: 0, delta: { role: 'assistant', content: 'Cut' }, finish_reason: null }]);
    chunk([{ index: 0, delta: { content: ' off right' }, finish_reason: null }]);
    chunk([{ index: 0, delta: {}, finish_reason: 'length' }]);
    chunk([], { usage });
    res.end('data: [DONE]\n\n');
  });
});

function config(oa: string, ds: string, sp: string, len: string): string {
  return `
groups:
  - id: demo-chat
    mode: chat
    max_input_tokens: 262144
    max_output_tokens: 1024
    price: { input_per_mtok: 0.01, output_per_mtok: 0.02 }
    deployments: [{ provider: demo, model: demo-chat }]
  - id: plain
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 100
    price: { input_per_mtok: 1.5, output_per_mtok: 2 }
    deployments: [{ provider: openai, model: gpt-sim, api_base: "${oa}/v1", api_key_env: OA_KEY }]
  - id: vision
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 100
    image_input: true
    price: { input_per_mtok: 1.5, output_per_mtok: 2 }
    deployments: [{ provider: openai, model: gpt-vision, api_base: "${oa}/v1", api_key_env: OA_KEY }]
  - id: thinking
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 8192
    reasoning: { default_effort: high }
    price: { input_per_mtok: 0.14, output_per_mtok: 0.28 }
    deployments: [{ provider: deepseek, model: deepseek-sim, api_base: "${ds}", api_key_env: DS_KEY }]
  - id: spaced
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 100
    price: { input_per_mtok: 1.5, output_per_mtok: 2 }
    deployments: [{ provider: openai, model: gpt-sim, api_base: "${sp}/v1", api_key_env: OA_KEY }]
  - id: cut-short
    mode: chat
    max_input_tokens: 131072
    max_output_tokens: 100
    price: { input_per_mtok: 1.5, output_per_mtok: 2 }
    deployments: [{ provider: openai, model: gpt-len, api_base: "${len}/v1", api_key_env: OA_KEY }]
router: { retries: 0, allowed_fails: 1000, cooldown_seconds: 1, timeout_ms: 5000 }
server: { key_cache_ttl_ms: 0 }
`;
}

export let gateway: TestGateway;
export let key: { id: string; key: string };
export let client: Anthropic;

export const sdk = (secret: string, options: Partial<ConstructorParameters<typeof Anthropic>[0]> = {}) =>
  new Anthropic({ apiKey: secret, baseURL: gateway.url, maxRetries: 0, ...options });

export type Body = Record<string, unknown>;
export type Message = { role: string; content: unknown; reasoning_content?: unknown; tool_calls?: unknown };

/** The body of the simulator's last request. */
export const lastBody = (sim: ChatSimulator) => sim.requests.at(-1)?.body as Body;
export const lastMessages = (sim: ChatSimulator) => lastBody(sim).messages as Message[];

export interface LogRow {
  id: string;
  cost_usd: number;
  usage: Record<string, number>;
  estimated: boolean;
}

export async function spendRows(keyId: string): Promise<LogRow[]> {
  const response = await gateway.admin('GET', `/admin/v1/spend/logs?key_id=${keyId}&limit=1000`);
  return ((await response.json()) as { data: LogRow[] }).data;
}

export async function spendRow(keyId: string, id: string): Promise<LogRow> {
  let row: LogRow | undefined;
  await eventually(async () => {
    row = (await spendRows(keyId)).find((r) => r.id === id);
    return row !== undefined;
  }, 5000);
  return row as LogRow;
}

export const spentOf = async (keyId: string) =>
  ((await (await gateway.admin('GET', `/admin/v1/keys/${keyId}`)).json()) as { spent_usd: number }).spent_usd;

/** A raw Messages call with the headers an Anthropic client sends. */
export function post(path: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
  return fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key.key, 'anthropic-version': '2023-06-01', ...headers },
    body: JSON.stringify(body),
    signal,
  });
}

export interface Frame {
  event: string | undefined;
  data: Record<string, unknown>;
  text: string;
}

/** A streamed call's SSE frames, read raw until the stream ends or `stopAfter` frames came (then the caller leaves). */
export async function rawFrames(
  body: Body,
  stopAfter = Number.POSITIVE_INFINITY,
  secret = key.key,
): Promise<{ frames: Frame[]; response: Response }> {
  const controller = new AbortController();
  const response = await post('/v1/messages', { ...body, stream: true }, { 'x-api-key': secret }, controller.signal);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const frames: Frame[] = [];
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(bytes, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
        const text = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const event = /^event: (.+)$/m.exec(text)?.[1];
        const data = JSON.parse(/^data: (.+)$/m.exec(text)?.[1] ?? 'null') as Record<string, unknown>;
        frames.push({ event, data, text });
      }
      if (frames.length >= stopAfter) break;
    }
  } finally {
    controller.abort();
  }
  return { frames, response };
}

/** The SDK's error as [status, error.type], with the body's shape checked. */
export function refusal(error: unknown): [number, string] | unknown {
  if (!(error instanceof Anthropic.APIError)) return error;
  const body = error.error as { type?: unknown; error?: { type?: unknown; message?: unknown } };
  expect(body.type).toBe('error');
  expect(typeof body.error?.message).toBe('string');
  expect(Object.keys(body).sort()).toEqual(['error', 'type']);
  return [error.status, body.error?.type];
}

/** A large max_tokens asked without streaming: the SDK wants a timeout named for it. */
export const LONG = { timeout: 60_000 };

export const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export const lookupTool: Anthropic.Tool = {
  name: 'lookup',
  description: 'Looks a thing up.',
  input_schema: { type: 'object', properties: { q: { type: 'string' }, n: { type: 'number' } }, required: ['q'] },
};

/** Starts the simulators and the gateway before the file's tests, and stops them after. */
export function useMessagesGateway(): void {
  beforeAll(async () => {
    const [oa, ds, sp] = await Promise.all([plainSim.listen(), thinkingSim.listen(), spacedSim.listen()]);
    await new Promise<void>((resolve) => lengthUpstream.listen(0, '127.0.0.1', resolve));
    const len = `http://127.0.0.1:${(lengthUpstream.address() as AddressInfo).port}`;
    gateway = await startTestGateway({
      config: parseConfig(config(oa as string, ds as string, sp as string, len), 'messages-test'),
      env: { OA_KEY: 'oa-credential', DS_KEY: 'ds-credential' },
    });
    key = await gateway.createKey({ name: 'messages', models: ['*'], budget_usd: 5 });
    client = sdk(key.key);
  });
  afterAll(async () => {
    if (gateway) await stopTestGateway(gateway);
    lengthUpstream.closeAllConnections();
    await Promise.all([
      plainSim.close(),
      thinkingSim.close(),
      spacedSim.close(),
      new Promise<void>((resolve) => lengthUpstream.close(() => resolve())),
    ]);
  });
}
