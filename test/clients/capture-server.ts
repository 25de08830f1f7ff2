import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in Responses API / Anthropic Messages API upstream on 127.0.0.1:0 that records every
// request a real client sends (method, path, headers without the authorization / x-api-key values,
// JSON body) and answers POST /v1/responses with a minimal valid streamed (SSE) or JSON Responses
// answer, and POST /v1/messages (any query, e.g. ?beta=true) with a streamed (SSE) or JSON Messages
// answer. Its `reply` / `messagesReply` hooks decide per request: text, or one function call / one
// tool_use. The harness test and the fixture capture use it to learn, offline, exactly what Codex,
// the Agents SDK and Claude Code send.

export interface CapturedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Names of the credential headers that were sent (authorization, x-api-key); their values are not kept. */
  credentialHeaders: string[];
  /** Parsed JSON body, the raw text when it is not JSON, or null when empty. */
  body: unknown;
}

export type Reply = (
  | { kind: 'text'; text: string }
  | { kind: 'function_call'; name: string; arguments: string; callId?: string; namespace?: string }
) & {
  /** A reasoning item before the answer (summary text and an opaque encrypted_content), to see how clients replay it. */
  reasoning?: { summary: string; encryptedContent: string };
};

export interface CaptureServer {
  url: string;
  /** The OpenAI-style base URL, `${url}/v1`. */
  baseURL: string;
  requests: CapturedRequest[];
  /** The recorded POST /v1/responses bodies, in order. */
  responseBodies(): Record<string, unknown>[];
  /** The recorded POST /v1/messages requests (not count_tokens), in order. */
  messagesRequests(): CapturedRequest[];
  close(): Promise<void>;
}

export interface CaptureOptions {
  /** Chooses the answer to one POST /v1/responses body; the default answers text always. */
  reply?: (body: Record<string, unknown>, index: number) => Reply;
  /** Chooses the answer to one POST /v1/messages body; the default is demoLikeMessagesReply. */
  messagesReply?: (body: Record<string, unknown>, index: number) => MessagesReply;
}

export type MessagesReply = (
  | { kind: 'text'; text: string }
  | { kind: 'tool_use'; name: string; input: Record<string, unknown>; id?: string }
) & {
  /** A thinking block before the answer (text and an opaque signature), to see how clients replay it. */
  thinking?: { thinking: string; signature: string };
};

const defaultReply = (body: Record<string, unknown>): Reply => demoLikeReply(body);

/** The items of the body's `input` (a string input counts as one user message). */
export function inputItems(body: Record<string, unknown>): Record<string, unknown>[] {
  const input = body.input;
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? (input as Record<string, unknown>[]) : [];
}

/** The text of the last function_call_output in the input, or undefined when there is none. */
export function lastToolOutput(body: Record<string, unknown>): string | undefined {
  const items = inputItems(body);
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.type === 'function_call_output') {
      const output = item.output;
      if (typeof output === 'string') return output;
      if (Array.isArray(output)) {
        return output.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
      }
      return JSON.stringify(output);
    }
    if (item?.type === 'message' && item.role === 'user') return undefined;
  }
  return undefined;
}

export async function startCaptureServer(options: CaptureOptions = {}): Promise<CaptureServer> {
  const requests: CapturedRequest[] = [];
  const reply = options.reply ?? defaultReply;
  const messagesReply = options.messagesReply ?? demoLikeMessagesReply;
  let responseCount = 0;
  let messagesCount = 0;

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error), type: 'server_error' } }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let raw: Buffer = Buffer.concat(chunks);
    // Codex may compress request bodies (feature enable_request_compression): zstd or gzip.
    const encoding = req.headers['content-encoding'];
    if (encoding === 'zstd' || encoding === 'gzip' || encoding === 'br' || encoding === 'deflate') {
      raw = await decompress(raw, encoding);
    }
    const text = raw.toString('utf8');
    let body: unknown = null;
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const headers: Record<string, string> = {};
    const credentialHeaders: string[] = [];
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      if (name === 'authorization' || name === 'x-api-key') {
        credentialHeaders.push(name);
        continue;
      }
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers, credentialHeaders, body });
    const pathname = path.split('?')[0];

    if (req.method === 'POST' && pathname === '/v1/messages/count_tokens') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: Math.max(1, Math.ceil(text.length / 4)) }));
      return;
    }
    if (req.method === 'POST' && pathname === '/v1/messages' && body !== null && typeof body === 'object') {
      const request = body as Record<string, unknown>;
      const answer = messagesReply(request, messagesCount++);
      const message = buildMessage(request, answer, messagesCount, Math.max(1, Math.ceil(text.length / 4)));
      const idHeader = { 'request-id': `req_capture_${messagesCount}` };
      if (request.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...idHeader });
        for (const frame of messageFrames(message)) res.write(frame);
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json', ...idHeader });
        res.end(JSON.stringify(message));
      }
      return;
    }

    if (req.method === 'POST' && pathname === '/v1/responses' && body !== null && typeof body === 'object') {
      const request = body as Record<string, unknown>;
      const answer = reply(request, responseCount++);
      const response = buildResponse(request, answer, responseCount);
      if (request.stream === true) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
        for (const frame of streamFrames(response)) res.write(frame);
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(response));
      }
      return;
    }
    if (req.method === 'GET' && pathname === '/v1/models' && req.headers['anthropic-version'] !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          data: [{ type: 'model', id: 'demo-chat', display_name: 'demo-chat', created_at: '2024-01-01T00:00:00Z' }],
          has_more: false,
          first_id: 'demo-chat',
          last_id: 'demo-chat',
        }),
      );
      return;
    }
    if (req.method === 'GET' && pathname === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: [{ id: 'demo-chat', object: 'model', created: 1_700_000_000, owned_by: 'gateway' }],
        }),
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `not found: ${req.method} ${pathname}`, type: 'invalid_request_error' } }));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    requests,
    responseBodies: () =>
      requests.filter((r) => r.method === 'POST' && r.path.split('?')[0] === '/v1/responses').map((r) => r.body as Record<string, unknown>),
    messagesRequests: () => requests.filter((r) => r.method === 'POST' && r.path.split('?')[0] === '/v1/messages'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function decompress(raw: Buffer, encoding: string): Promise<Buffer> {
  const zlib = await import('node:zlib');
  if (encoding === 'gzip') return zlib.gunzipSync(raw);
  if (encoding === 'br') return zlib.brotliDecompressSync(raw);
  if (encoding === 'deflate') return zlib.inflateSync(raw);
  // zstd is in node:zlib from Node 22.15 / 23.8 on.
  const zstd = (zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
  if (!zstd) throw new Error('zstd request body, and this Node has no zlib.zstdDecompressSync');
  return zstd(raw);
}

type Json = Record<string, unknown>;

function buildResponse(request: Json, answer: Reply, n: number): Json {
  const id = `resp_capture_${n}`;
  const item: Json =
    answer.kind === 'text'
      ? {
          type: 'message',
          id: `msg_capture_${n}`,
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: answer.text, annotations: [], logprobs: [] }],
        }
      : {
          type: 'function_call',
          id: `fc_capture_${n}`,
          status: 'completed',
          call_id: answer.callId ?? `call_capture_${n}`,
          name: answer.name,
          arguments: answer.arguments,
          ...(answer.namespace ? { namespace: answer.namespace } : {}),
        };
  return {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    model: request.model ?? 'demo-chat',
    output: answer.reasoning
      ? [
          {
            type: 'reasoning',
            id: `rs_capture_${n}`,
            summary: [{ type: 'summary_text', text: answer.reasoning.summary }],
            encrypted_content: answer.reasoning.encryptedContent,
          },
          item,
        ]
      : [item],
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    store: request.store ?? true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    top_p: 1,
    truncation: 'disabled',
    usage: {
      input_tokens: 12,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 17,
    },
    user: null,
    metadata: {},
  };
}

function sse(type: string, data: Json): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

function streamFrames(response: Json): string[] {
  let seq = 0;
  const frame = (type: string, data: Json) => sse(type, { ...data, sequence_number: seq++ });
  const pending = { ...response, status: 'in_progress', output: [], usage: null };
  const output = response.output as Json[];
  const frames = [frame('response.created', { response: pending }), frame('response.in_progress', { response: pending })];
  output.forEach((item, index) => {
    const at = { item_id: item.id, output_index: index };
    if (item.type === 'reasoning') {
      const text = ((item.summary as Json[])[0] as Json).text as string;
      frames.push(
        frame('response.output_item.added', { output_index: index, item: { ...item, summary: [] } }),
        frame('response.reasoning_summary_part.added', { ...at, summary_index: 0, part: { type: 'summary_text', text: '' } }),
        frame('response.reasoning_summary_text.delta', { ...at, summary_index: 0, delta: text }),
        frame('response.reasoning_summary_text.done', { ...at, summary_index: 0, text }),
        frame('response.reasoning_summary_part.done', { ...at, summary_index: 0, part: { type: 'summary_text', text } }),
      );
    } else if (item.type === 'message') {
      const text = ((item.content as Json[])[0] as Json).text as string;
      const at0 = { ...at, content_index: 0 };
      frames.push(
        frame('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', content: [] } }),
        frame('response.content_part.added', { ...at0, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } }),
        frame('response.output_text.delta', { ...at0, delta: text, logprobs: [] }),
        frame('response.output_text.done', { ...at0, text, logprobs: [] }),
        frame('response.content_part.done', { ...at0, part: { type: 'output_text', text, annotations: [], logprobs: [] } }),
      );
    } else {
      frames.push(
        frame('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', arguments: '' } }),
        frame('response.function_call_arguments.delta', { ...at, delta: item.arguments }),
        frame('response.function_call_arguments.done', { ...at, name: item.name, arguments: item.arguments }),
      );
    }
    frames.push(frame('response.output_item.done', { output_index: index, item }));
  });
  frames.push(frame('response.completed', { response }));
  return frames;
}

/** The text of the last user message in the input ('' when none). */
export function lastUserText(body: Record<string, unknown>): string {
  const items = inputItems(body);
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.role !== 'user' || (item.type !== undefined && item.type !== 'message')) continue;
    const content = item.content;
    if (typeof content === 'string') return content;
    if (Array.isArray(content)) {
      return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
    }
    return '';
  }
  return '';
}

/**
 * What the gateway's demo provider does, for the capture server: a function call when the request
 * offers tools and the last user text holds `[demo:call NAME {json arguments}]`, a text quoting
 * (up to 500 characters of) the tool's output when the latest item is a function_call_output,
 * else a fixed text.
 */
export function demoLikeReply(body: Record<string, unknown>): Reply {
  const items = inputItems(body);
  const last = items[items.length - 1];
  if (last?.type === 'function_call_output') {
    return { kind: 'text', text: `The tool answered: ${(lastToolOutput(body) ?? '').slice(0, 500)}` };
  }
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const marker = /\[demo:call (\S+) (\{.*\})\]/s.exec(lastUserText(body));
  if (tools.length > 0 && marker?.[1] && marker[2]) {
    return { kind: 'function_call', name: marker[1], arguments: marker[2] };
  }
  return { kind: 'text', text: 'hello from the capture server' };
}

// ---- Anthropic Messages API ----

/** The body's `messages` (an empty list when absent). */
export function messagesOf(body: Record<string, unknown>): Json[] {
  return Array.isArray(body.messages) ? (body.messages as Json[]) : [];
}

/** The content blocks of one message (a string content counts as one text block). */
export function contentBlocks(message: Json | undefined): Json[] {
  const content = message?.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as Json[]) : [];
}

/** The text of a tool_result block's content (a string, or text blocks joined). */
export function toolResultText(block: Json): string {
  const content = block.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return (content as Json[]).map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
  return content === undefined ? '' : JSON.stringify(content);
}

/**
 * What the gateway's demo provider does, for Messages requests: when the last message (not counting
 * `role: "system"` ones) is a user message holding tool_result blocks, a text quoting (up to 500 characters of) the last one; when
 * the request offers tools and the last user text holds `[demo:call NAME {json input}]`, a tool_use;
 * else a fixed text.
 */
export function demoLikeMessagesReply(body: Record<string, unknown>): MessagesReply {
  // Claude Code puts a `role: "system"` message (its environment) after the user's first message: skip those.
  const messages = messagesOf(body).filter((message) => message.role !== 'system');
  const last = messages[messages.length - 1];
  const blocks = last?.role === 'user' ? contentBlocks(last) : [];
  const results = blocks.filter((block) => block.type === 'tool_result');
  if (results.length > 0) {
    return { kind: 'text', text: `The tool answered: ${toolResultText(results[results.length - 1] as Json).slice(0, 500)}` };
  }
  const userText = blocks.map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : '')).join('\n');
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const marker = /\[demo:call (\S+) (\{.*\})\]/s.exec(userText);
  if (tools.length > 0 && marker?.[1] && marker[2]) {
    return { kind: 'tool_use', name: marker[1], input: JSON.parse(marker[2]) as Record<string, unknown> };
  }
  return { kind: 'text', text: 'hello from the capture server' };
}

function buildMessage(request: Json, answer: MessagesReply, n: number, inputTokens: number): Json {
  const content: Json[] = [];
  if (answer.thinking) content.push({ type: 'thinking', thinking: answer.thinking.thinking, signature: answer.thinking.signature });
  if (answer.kind === 'text') content.push({ type: 'text', text: answer.text });
  else content.push({ type: 'tool_use', id: answer.id ?? `toolu_capture_${n}`, name: answer.name, input: answer.input });
  return {
    id: `msg_capture_${n}`,
    type: 'message',
    role: 'assistant',
    model: request.model ?? 'demo-chat',
    content,
    stop_reason: answer.kind === 'text' ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: inputTokens, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
  };
}

/** The SSE frames of a streamed Messages answer (event: + data: lines, as the Anthropic API sends them). */
export function messageFrames(message: Json): string[] {
  const usage = message.usage as Json;
  const frames = [
    sse('message_start', {
      message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
    }),
    sse('ping', {}),
  ];
  (message.content as Json[]).forEach((block, index) => {
    if (block.type === 'text') {
      const text = block.text as string;
      const half = Math.ceil(text.length / 2);
      frames.push(
        sse('content_block_start', { index, content_block: { type: 'text', text: '' } }),
        sse('content_block_delta', { index, delta: { type: 'text_delta', text: text.slice(0, half) } }),
        sse('content_block_delta', { index, delta: { type: 'text_delta', text: text.slice(half) } }),
      );
    } else if (block.type === 'thinking') {
      frames.push(
        sse('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
        sse('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking } }),
        sse('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } }),
      );
    } else {
      const json = JSON.stringify(block.input);
      const half = Math.ceil(json.length / 2);
      frames.push(
        sse('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }),
        sse('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(0, half) } }),
        sse('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(half) } }),
      );
    }
    frames.push(sse('content_block_stop', { index }));
  });
  frames.push(
    sse('message_delta', {
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    }),
    sse('message_stop', {}),
  );
  return frames;
}
