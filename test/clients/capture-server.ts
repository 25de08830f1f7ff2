import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in Responses API upstream on 127.0.0.1:0 that records every request a real client sends
// (method, path, headers without authorization, JSON body) and answers POST /v1/responses with a
// minimal valid streamed (SSE) or JSON Responses answer. Its `reply` hook decides per request:
// text, or one function call. The harness test and the fixture capture use it to learn, offline,
// exactly what Codex and the Agents SDK send.

export interface CapturedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
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
  close(): Promise<void>;
}

export interface CaptureOptions {
  /** Chooses the answer to one POST /v1/responses body; the default answers text always. */
  reply?: (body: Record<string, unknown>, index: number) => Reply;
}

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
  let responseCount = 0;

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
    for (const [name, value] of Object.entries(req.headers)) {
      if (name === 'authorization' || value === undefined) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers, body });
    const pathname = path.split('?')[0];

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
