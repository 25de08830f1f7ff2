import type { ChatGroupConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { invalid, isObject, type JsonObject } from '../domain/request.js';
import { CHAT_LIMITS, shapeProblem } from '../domain/schema.js';
import { chatMessages, systemText, type VerifyThinking } from './content.js';
import { chatToolChoice, chatTools } from './tools.js';

// An Anthropic Messages request read and translated onto a chat completion request. Fields the
// chat pipeline knows are mapped to their chat names; the rest (context_management,
// service_tier, container, mcp_servers, cache_control on blocks, …) is dropped as chat drops
// unknown parameters (docs/messages.md).

/** The translated call: the chat body, the tool types dropped, and whether it streams. */
export interface TranslatedMessages {
  chatBody: JsonObject;
  dropped: string[];
  stream: boolean;
}

/** `thinking.budget_tokens` as an effort: below 4,096 low, below 16,384 high, else max. */
function budgetEffort(budget: unknown): string {
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1)
    throw invalid('thinking.budget_tokens', 'must be a whole number >= 1.');
  return budget < 4096 ? 'low' : budget < 16_384 ? 'high' : 'max';
}

const EFFORTS: ReadonlySet<unknown> = new Set(['low', 'medium', 'high', 'max']);

/**
 * The chat `reasoning_effort`: `thinking.type: disabled` is none; else `output_config.effort`
 * (mapped as chat maps it); else an `enabled` budget's level; `adaptive` or nothing leaves the
 * group's default.
 */
function reasoningEffort(body: JsonObject): string | undefined {
  const { thinking, output_config: output } = body;
  if (thinking !== undefined && thinking !== null && !isObject(thinking)) throw invalid('thinking', 'must be an object.');
  if (output !== undefined && output !== null && !isObject(output)) throw invalid('output_config', 'must be an object.');
  const type = isObject(thinking) ? thinking.type : undefined;
  if (type !== undefined && type !== 'enabled' && type !== 'disabled' && type !== 'adaptive') {
    throw invalid('thinking.type', 'must be one of enabled, disabled, adaptive.');
  }
  if (type === 'disabled') return 'none';
  const effort = isObject(output) ? output.effort : undefined;
  if (effort !== undefined && effort !== null) {
    if (!EFFORTS.has(effort)) throw invalid('output_config.effort', 'must be one of low, medium, high, max.');
    return effort as string;
  }
  return type === 'enabled' && isObject(thinking) ? budgetEffort(thinking.budget_tokens) : undefined;
}

/** `max_tokens`, required as Anthropic requires it, capped to the group's limit (Claude Code asks 32,000 on every call). */
function outputLimit(body: JsonObject, group: ChatGroupConfig): number {
  const value = body.max_tokens;
  if (value === undefined || value === null) throw invalid('max_tokens', 'is required.');
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw invalid('max_tokens', 'must be a whole number >= 1.');
  return Math.min(value, group.maxOutputTokens);
}

function sampling(body: JsonObject, chatBody: JsonObject): void {
  const { temperature, top_p: topP, top_k: topK, stop_sequences: stops } = body;
  if (temperature !== undefined && temperature !== null) {
    if (typeof temperature !== 'number' || !(temperature >= 0 && temperature <= 1))
      throw invalid('temperature', 'must be a number from 0 to 1.');
    chatBody.temperature = temperature;
  }
  if (topP !== undefined && topP !== null) {
    if (typeof topP !== 'number' || !(topP >= 0 && topP <= 1)) throw invalid('top_p', 'must be a number from 0 to 1.');
    chatBody.top_p = topP;
  }
  if (topK !== undefined && topK !== null) {
    if (typeof topK !== 'number' || !Number.isInteger(topK) || topK < 0) throw invalid('top_k', 'must be a whole number >= 0.');
    // Sent on to adapters whose upstream takes it; the built-in ones drop it.
    chatBody.top_k = topK;
  }
  if (stops !== undefined && stops !== null) {
    if (!Array.isArray(stops) || stops.some((stop) => typeof stop !== 'string') || stops.length > CHAT_LIMITS.stop) {
      throw invalid('stop_sequences', `must be an array of at most ${CHAT_LIMITS.stop} strings.`);
    }
    if (stops.length > 0) chatBody.stop = stops;
  }
}

/** `metadata.user_id` as chat's `user`, when it fits chat's limit (Claude Code sends a JSON string). */
function user(metadata: unknown): string | undefined {
  if (metadata === undefined || metadata === null) return undefined;
  if (!isObject(metadata)) throw invalid('metadata', 'must be an object.');
  const id = metadata.user_id;
  if (id === undefined || id === null) return undefined;
  if (typeof id !== 'string') throw invalid('metadata.user_id', 'must be a string.');
  return id.length <= CHAT_LIMITS.user ? id : undefined;
}

/** A choice of one tool names one the upstream gets: a dropped server tool leaves the model to choose. */
function namesClientTool(choice: unknown, tools: readonly JsonObject[]): boolean {
  if (!isObject(choice) || !isObject(choice.function)) return true;
  const name = choice.function.name;
  return tools.some((tool) => isObject(tool.function) && tool.function.name === name);
}

/** Reads the request's shape before anything is translated. */
export function readMessagesBody(body: unknown): JsonObject {
  if (!isObject(body)) throw new GatewayError('invalid_request', { message: 'The request body must be a JSON object.' });
  const problem = shapeProblem(body);
  if (problem) throw invalid(problem.path || 'body', problem.message);
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') throw invalid('stream', 'must be a boolean.');
  return body;
}

/**
 * The chat completion body of a Messages call. For count_tokens (`counting`), `max_tokens` is
 * not required and nothing about the answer is read.
 */
export function translateMessages(body: JsonObject, group: ChatGroupConfig, verify: VerifyThinking, counting = false): TranslatedMessages {
  const stream = !counting && body.stream === true;
  const messages = chatMessages(systemText(body.system), body.messages, group, verify);
  const chatBody: JsonObject = { model: body.model, messages, stream };
  if (stream) chatBody.stream_options = { include_usage: true };
  const { tools, dropped } = chatTools(body.tools);
  const { choice, parallel } = chatToolChoice(body.tool_choice);
  if (tools.length > 0) {
    chatBody.tools = tools;
    if (choice !== undefined) chatBody.tool_choice = namesClientTool(choice, tools) ? choice : 'auto';
    if (parallel === false) chatBody.parallel_tool_calls = false;
  }
  if (!counting) chatBody.max_completion_tokens = outputLimit(body, group);
  sampling(body, chatBody);
  const effort = reasoningEffort(body);
  if (effort !== undefined) chatBody.reasoning_effort = effort;
  const id = user(body.metadata);
  if (id !== undefined) chatBody.user = id;
  return { chatBody, dropped, stream };
}
