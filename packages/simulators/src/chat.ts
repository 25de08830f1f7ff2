import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { REASONING_TEXT, simulatorTurn, turnDeltas } from './chat-turn.js';
import { PromptCache, promptChars } from './prompt-cache.js';

// An OpenAI-compatible chat completions upstream, strict the way real vendors are: it refuses
// parameters it does not know, images on models without vision, and (flavor "deepseek") speaks
// DeepSeek's thinking controls and reasoning traces. It calls tools on request (chat-turn.ts),
// plain and streamed, so an agent's tool loop runs against it. Faults are queued per request.

export type ChatFlavor = 'openai' | 'deepseek';

export interface ChatFault {
  /** Answer with this status and an error body (429 with Retry-After when retryAfter is set). */
  status?: number;
  retryAfter?: number;
  /** Wait this long before the response headers. */
  delayMs?: number;
  /** Reset the connection (TCP RST) without answering a byte, after `delayMs` if set. */
  reset?: boolean;
  /** Streams: close the connection after this many chunks, without [DONE] or usage. */
  cutAfterChunks?: number;
  /** Streams: end cleanly but without the usage chunk. */
  omitUsage?: boolean;
  /** Streams: wait this long after the last content chunk before the finish and usage chunks. */
  usageDelayMs?: number;
}

export interface ChatSimulatorOptions {
  flavor: ChatFlavor;
  /** The bearer credential it accepts. */
  credential: string;
  /** Models it serves; `vision` ones accept image parts. */
  models: readonly string[];
  visionModels?: readonly string[];
  /** Streams: pause between chunks. */
  chunkDelayMs?: number;
  /**
   * The text every completion answers with (split into one chunk per word when streamed), but
   * for tool calls asked by `[sim:call NAME {json}]` and quotes of tool results (chat-turn.ts).
   */
  reply?: string;
  /** Keep received requests for assertions (off in benchmarks). */
  record?: boolean;
  /** DeepSeek-style prefix caching (see prompt-cache.ts); on unless false. */
  promptCache?: boolean;
}

/** What a stream carries after its headers: the deltas, the finish reason, and the usage when asked for. */
interface StreamedAnswer {
  deltas: Record<string, unknown>[];
  finish: string;
  usage: { usage: { prompt_tokens: number; completion_tokens: number }; cachedTokens: number } | undefined;
}

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

const COMMON = [
  'model',
  'messages',
  'temperature',
  'top_p',
  'stop',
  'max_tokens',
  'presence_penalty',
  'frequency_penalty',
  'logprobs',
  'top_logprobs',
  'tools',
  'tool_choice',
  'response_format',
  'stream',
  'stream_options',
];
const ALLOWED: Record<ChatFlavor, ReadonlySet<string>> = {
  openai: new Set([...COMMON, 'n', 'max_completion_tokens', 'logit_bias', 'seed', 'user', 'parallel_tool_calls']),
  deepseek: new Set([...COMMON, 'thinking', 'reasoning_effort']),
};
const ROLES: Record<ChatFlavor, ReadonlySet<string>> = {
  openai: new Set(['system', 'user', 'assistant', 'tool', 'developer']),
  deepseek: new Set(['system', 'user', 'assistant', 'tool']),
};

/** Tokens as this simulator counts them: one per four characters of message text, at least one. */
export function countPromptTokens(messages: unknown): number {
  return Math.max(1, Math.ceil(promptChars(messages) / 4));
}

/** Tool definitions are prompt too, as every vendor bills them: one token per four characters of their JSON. */
export function countToolTokens(tools: unknown): number {
  return Array.isArray(tools) && tools.length > 0 ? Math.ceil(JSON.stringify(tools).length / 4) : 0;
}

export class ChatSimulator {
  readonly requests: RecordedRequest[] = [];
  readonly #faults: ChatFault[] = [];
  readonly #server: Server;
  readonly #options: Required<Omit<ChatSimulatorOptions, 'visionModels'>> & { visionModels: readonly string[] };
  #completions = 0;
  /** Streams whose caller went away before the end. */
  aborted = 0;
  /** Sum of the usage it reported, for exact-metering checks. */
  readonly totals = { prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0, calls: 0 };
  /** This deployment's prompt prefixes; undefined when caching is off. */
  readonly #cache: PromptCache | undefined;

  constructor(options: ChatSimulatorOptions) {
    this.#options = {
      chunkDelayMs: 0,
      reply: 'Hello from the simulator, one word at a time.',
      record: true,
      visionModels: [],
      promptCache: true,
      ...options,
    };
    this.#cache = this.#options.promptCache ? new PromptCache() : undefined;
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    });
    this.#server.keepAliveTimeout = 60_000;
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Queues faults, used by the next requests in order. */
  fail(...faults: ChatFault[]): void {
    this.#faults.push(...faults);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return error(res, 404, 'Not found', 'not_found');
    if (req.headers.authorization !== `Bearer ${this.#options.credential}`)
      return error(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      return error(res, 400, 'Invalid JSON body.', 'invalid_json');
    }
    if (this.#options.record) this.requests.push({ path: req.url, headers: req.headers, body });

    const fault = this.#faults.shift() ?? {};
    if (fault.delayMs) await sleep(fault.delayMs);
    if (fault.reset) {
      req.socket.resetAndDestroy();
      return;
    }
    if (fault.status) {
      if (fault.retryAfter !== undefined) res.setHeader('retry-after', String(fault.retryAfter));
      return error(
        res,
        fault.status,
        fault.status === 429 ? 'Rate limit reached.' : 'The server had an error while processing your request.',
        null,
      );
    }
    const problem = this.#validate(body);
    if (problem) return error(res, 400, problem, 'invalid_request_error');

    const thinking = this.#options.flavor === 'deepseek' && (body.thinking as { type?: string } | undefined)?.type === 'enabled';
    const turn = simulatorTurn(body, this.#options.reply);
    const { usage, cachedTokens } = this.#usage(body.messages, body.tools, turn.completionTokens, thinking);
    this.#completions += 1;
    const base = { id: `upstream-${this.#completions}`, created: Math.floor(Date.now() / 1000), model: body.model as string };

    if (body.stream !== true) {
      this.#count(usage, cachedTokens);
      const message: Record<string, unknown> = { role: 'assistant', content: turn.content };
      if (thinking) message.reasoning_content = REASONING_TEXT;
      if (turn.calls.length > 0) message.tool_calls = turn.calls;
      return json(res, 200, {
        ...base,
        object: 'chat.completion',
        system_fingerprint: 'fp_upstream',
        choices: [{ index: 0, message, logprobs: null, finish_reason: turn.finish }],
        usage,
      });
    }
    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    await this.#stream(
      res,
      fault,
      { ...base, object: 'chat.completion.chunk', system_fingerprint: 'fp_upstream' },
      {
        deltas: turnDeltas(turn, thinking),
        finish: turn.finish,
        usage: includeUsage ? { usage, cachedTokens } : undefined,
      },
    );
  }

  /** Streams the deltas a chunk each, then the finish chunk and the usage chunk, the fault's cut, delay or omission applied. */
  async #stream(res: ServerResponse, fault: ChatFault, base: Record<string, unknown>, answer: StreamedAnswer): Promise<void> {
    const includeUsage = answer.usage !== undefined;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.on('close', () => {
      if (!res.writableFinished) this.aborted += 1;
    });
    let sent = 0;
    for (const delta of answer.deltas) {
      if (sent > 0 && this.#options.chunkDelayMs) await sleep(this.#options.chunkDelayMs);
      if (res.destroyed) return;
      if (fault.cutAfterChunks !== undefined && sent >= fault.cutAfterChunks) {
        res.destroy();
        return;
      }
      res.write(
        `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: null }], ...(includeUsage ? { usage: null } : {}) })}\n\n`,
      );
      sent += 1;
    }
    if (fault.usageDelayMs) await sleep(fault.usageDelayMs);
    if (res.destroyed) return;
    res.write(
      `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: answer.finish }], ...(includeUsage ? { usage: null } : {}) })}\n\n`,
    );
    if (answer.usage && !fault.omitUsage) {
      this.#count(answer.usage.usage, answer.usage.cachedTokens);
      res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: answer.usage.usage })}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  }

  /** The call's usage in the flavor's shape, and the cached tokens it reports (0 with caching off). */
  #usage(messages: unknown, tools: unknown, answerTokens: number, thinking: boolean) {
    const promptTokens = countPromptTokens(messages) + countToolTokens(tools);
    const cachedTokens = this.#cache?.use(messages) ?? 0;
    const reasoningTokens = thinking ? 7 : 0;
    const completionTokens = answerTokens + reasoningTokens;
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      // Each vendor's own shape: DeepSeek splits the prompt into hit and miss, OpenAI nests the hits.
      ...(this.#options.flavor === 'deepseek'
        ? { prompt_cache_hit_tokens: cachedTokens, prompt_cache_miss_tokens: promptTokens - cachedTokens }
        : { prompt_tokens_details: { cached_tokens: cachedTokens } }),
      completion_tokens_details: { reasoning_tokens: reasoningTokens },
    };
    return { usage, cachedTokens };
  }

  #count(usage: { prompt_tokens: number; completion_tokens: number }, cachedTokens: number): void {
    this.totals.prompt_tokens += usage.prompt_tokens;
    this.totals.completion_tokens += usage.completion_tokens;
    this.totals.cached_tokens += cachedTokens;
    this.totals.calls += 1;
  }

  /** What a strict vendor refuses, as its message; undefined when the body is acceptable. */
  #validate(body: Record<string, unknown>): string | undefined {
    const { flavor } = this.#options;
    for (const name of Object.keys(body)) {
      if (!ALLOWED[flavor].has(name)) return `Unrecognized request argument supplied: ${name}`;
    }
    const model = body.model;
    if (typeof model !== 'string' || !this.#options.models.includes(model)) return `The model \`${String(model)}\` does not exist.`;
    if (!Array.isArray(body.messages) || body.messages.length === 0) return 'messages must be a non-empty array';
    for (const message of body.messages as Record<string, unknown>[]) {
      if (!ROLES[flavor].has(String(message.role))) return `Invalid role: ${String(message.role)}`;
      if (flavor === 'deepseek' && 'reasoning_content' in message) return 'reasoning_content must not be sent back in messages';
      if (Array.isArray(message.content)) {
        for (const part of message.content as { type?: string }[]) {
          if (part.type === 'image_url' && !this.#options.visionModels.includes(model))
            return `Model ${model} does not support image input.`;
        }
      }
    }
    if (body.stream_options !== undefined && body.stream !== true) return 'stream_options is only allowed when stream is true';
    if (flavor === 'deepseek') {
      const thinking = body.thinking as { type?: string } | undefined;
      if (thinking !== undefined && thinking.type !== 'enabled' && thinking.type !== 'disabled')
        return 'thinking.type must be enabled or disabled';
      if (body.reasoning_effort !== undefined && body.reasoning_effort !== 'high' && body.reasoning_effort !== 'max') {
        return 'reasoning_effort must be high or max';
      }
    }
    // Like OpenAI: a logit_bias key must be a token id of the model's vocabulary.
    const bias = body.logit_bias;
    if (bias !== null && typeof bias === 'object') {
      const bad = Object.keys(bias).find((id) => Number(id) > 200_000);
      if (bad !== undefined) return `Invalid key in 'logit_bias': ${bad} is not a valid token ID.`;
    }
    const stop = body.stop;
    if (stop !== undefined && stop !== null && typeof stop !== 'string' && !Array.isArray(stop))
      return "Invalid type for 'stop': expected a string or an array of strings.";
    const temperature = body.temperature;
    if (temperature !== undefined && (typeof temperature !== 'number' || temperature < 0 || temperature > 2))
      return 'temperature out of range';
    return undefined;
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function error(res: ServerResponse, status: number, message: string, code: string | null): void {
  json(res, status, { error: { message, type: status === 429 ? 'rate_limit_error' : 'invalid_request_error', param: null, code } });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
