import type { ChatGroupConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { invalid, isObject, type JsonObject } from '../domain/request.js';
import { shapeProblem } from '../domain/schema.js';
import { checkEchoedFields } from './checks.js';
import { chatMessages, inputItems, type OpenReasoning } from './input-items.js';
import { chatToolChoice, chatTools } from './tools.js';

// A Responses API request read and translated onto a chat completion request. Fields the chat
// pipeline knows are mapped to their chat names; the rest is echoed in the response or dropped
// as chat drops unknown parameters (Codex sends `client_metadata` on every call).

/** What a Responses request asks, read and checked before anything is fetched or sent. */
export interface ResponsesRequest {
  body: JsonObject;
  stream: boolean;
  /** Keep the response and its input for `previous_response_id`, GET and input_items. */
  store: boolean;
  previousResponseId: string | undefined;
  /** This turn's input items, each with an id. */
  input: JsonObject[];
  /** `include` asks for `reasoning.encrypted_content`. */
  sealReasoning: boolean;
}

/** Request fields a response object echoes back (docs/responses.md). */
const ECHOED = [
  'instructions',
  'tool_choice',
  'parallel_tool_calls',
  'temperature',
  'top_p',
  'max_output_tokens',
  'text',
  'reasoning',
  'metadata',
  'previous_response_id',
  'user',
  'safety_identifier',
  'prompt_cache_key',
  'truncation',
  'service_tier',
  'top_logprobs',
  'max_tool_calls',
] as const;

/** `reasoning.effort` as the chat pipeline reads `reasoning_effort`; OpenAI's `xhigh` is the gateway's `max`. */
const EFFORTS: ReadonlyMap<string, string> = new Map([
  ['none', 'none'],
  ['minimal', 'minimal'],
  ['low', 'low'],
  ['medium', 'medium'],
  ['high', 'high'],
  ['xhigh', 'max'],
  ['max', 'max'],
]);

function optionalString(body: JsonObject, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalid(field, 'must be a string.');
  return value;
}

/** Reads the request's own fields; `storageOff` is the operator's word for this key. */
export function readResponsesRequest(body: unknown, storageOff: boolean): ResponsesRequest {
  if (!isObject(body)) throw new GatewayError('invalid_request', { message: 'The request body must be a JSON object.' });
  const problem = shapeProblem(body);
  if (problem) throw invalid(problem.path || 'body', problem.message);
  if (body.background === true)
    throw invalid('background', 'background responses are not supported by this gateway; send the call without it.');
  if (body.conversation !== undefined && body.conversation !== null) {
    throw invalid('conversation', 'conversations are not supported by this gateway; continue with previous_response_id.');
  }
  checkEchoedFields(body);
  if (storageOff && body.store === true)
    throw invalid('store', 'this gateway keeps no responses for this key; send store: false or leave it out.');
  const include = body.include;
  if (include !== undefined && include !== null && (!Array.isArray(include) || include.some((v) => typeof v !== 'string'))) {
    throw invalid('include', 'must be an array of strings.');
  }
  const previousResponseId = optionalString(body, 'previous_response_id');
  if (body.input === undefined && previousResponseId === undefined) throw invalid('input', 'is required.');
  return {
    body,
    stream: body.stream === true,
    store: storageOff ? false : body.store !== false,
    previousResponseId,
    input: body.input === undefined ? [] : inputItems(body.input),
    sealReasoning: Array.isArray(include) && include.includes('reasoning.encrypted_content'),
  };
}

function outputLimit(body: JsonObject, group: ChatGroupConfig): number | undefined {
  const value = body.max_output_tokens;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw invalid('max_output_tokens', 'must be a whole number >= 1.');
  if (value > group.maxOutputTokens)
    throw invalid('max_output_tokens', `must be at most ${group.maxOutputTokens} for model '${group.id}'.`);
  return value;
}

function effort(reasoning: unknown): string | undefined {
  if (reasoning === undefined || reasoning === null) return undefined;
  if (!isObject(reasoning)) throw invalid('reasoning', 'must be an object.');
  if (reasoning.effort === undefined || reasoning.effort === null) return undefined;
  const level = typeof reasoning.effort === 'string' ? EFFORTS.get(reasoning.effort) : undefined;
  if (!level) throw invalid('reasoning.effort', 'must be one of none, minimal, low, medium, high, xhigh (or max).');
  return level;
}

/** `text.format` as chat's `response_format`; plain text is chat's default and sends nothing. */
function responseFormat(text: unknown): JsonObject | undefined {
  if (text === undefined || text === null) return undefined;
  if (!isObject(text)) throw invalid('text', 'must be an object.');
  const format = text.format;
  if (format === undefined || format === null) return undefined;
  if (!isObject(format)) throw invalid('text.format', 'must be an object.');
  if (format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type !== 'json_schema') throw invalid('text.format.type', 'must be one of text, json_object, json_schema.');
  if (typeof format.name !== 'string' || format.name === '') throw invalid('text.format.name', 'must be a non-empty string.');
  if (!isObject(format.schema)) throw invalid('text.format.schema', 'must be a JSON Schema object.');
  const schema: JsonObject = { name: format.name, schema: format.schema };
  if (typeof format.description === 'string') schema.description = format.description;
  if (typeof format.strict === 'boolean') schema.strict = format.strict;
  return { type: 'json_schema', json_schema: schema };
}

/** The translated call: the chat body, what was dropped, and what the response echoes. */
export interface TranslatedRequest {
  chatBody: JsonObject;
  dropped: string[];
  namespaces: Map<string, string>;
  echo: JsonObject;
  /** The conversation's items up to and including this turn's input. */
  items: JsonObject[];
}

/** The chat completion body of a Responses call, with the earlier turns of its conversation first. */
export function translateRequest(
  request: ResponsesRequest,
  group: ChatGroupConfig,
  earlier: readonly JsonObject[],
  open: OpenReasoning,
): TranslatedRequest {
  const { body } = request;
  const items = [...earlier, ...request.input];
  const paths = [...earlier.map(() => 'previous_response_id'), ...request.input.map((_, i) => `input[${i}]`)];
  const messages = chatMessages(optionalString(body, 'instructions'), items, paths, group, open);
  if (messages.length === 0) throw invalid('input', 'must hold at least one message.');
  const { tools, dropped, namespaces } = chatTools(body.tools);
  const chatBody: JsonObject = { model: body.model, messages, stream: request.stream };
  if (request.stream) chatBody.stream_options = { include_usage: true };
  const choice = chatToolChoice(body.tool_choice, tools);
  if (tools.length > 0) {
    chatBody.tools = tools;
    if (choice !== undefined) chatBody.tool_choice = choice;
    if (typeof body.parallel_tool_calls === 'boolean') chatBody.parallel_tool_calls = body.parallel_tool_calls;
  }
  const limit = outputLimit(body, group);
  if (limit !== undefined) chatBody.max_completion_tokens = limit;
  for (const field of ['temperature', 'top_p'] as const)
    if (body[field] !== undefined && body[field] !== null) chatBody[field] = body[field];
  const level = effort(body.reasoning);
  if (level !== undefined) chatBody.reasoning_effort = level;
  const format = responseFormat(body.text);
  if (format) chatBody.response_format = format;
  const user = optionalString(body, 'safety_identifier') ?? optionalString(body, 'user');
  if (user !== undefined) chatBody.user = user;
  const cacheKey = optionalString(body, 'prompt_cache_key');
  if (cacheKey !== undefined) chatBody.prompt_cache_key = cacheKey;
  const echo: JsonObject = { tools: echoedTools(body.tools, dropped), store: request.store };
  for (const field of ECHOED) if (body[field] !== undefined) echo[field] = body[field];
  return { chatBody, dropped, namespaces, echo, items };
}

/** The caller's tools as the response shows them: those the group runs. */
function echoedTools(tools: unknown, dropped: readonly string[]): unknown[] {
  if (!Array.isArray(tools)) return [];
  return tools.filter((tool) => isObject(tool) && !dropped.includes(tool.type as string));
}
