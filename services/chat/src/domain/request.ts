import type { ChatGroupConfig, ReasoningEffort } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { chatRequestChecker, paramOf, shapeProblem } from './schema.js';

// Validation of a chat request against the group it addresses. Rules the specification states
// are enforced with a 422 naming the field; parameters it does not know are kept here and left
// to each provider's parameter map, which drops what its upstream does not understand.

export type Role = 'system' | 'user' | 'assistant' | 'tool' | 'developer';
const ROLES: ReadonlySet<string> = new Set<Role>(['system', 'user', 'assistant', 'tool', 'developer']);
/**
 * `reasoning_effort` as callers send it, to the group's levels: the specification's `none`,
 * `low`, `high` and `max`, and OpenAI's `minimal` and `medium` (what generic clients send most)
 * mapped to the nearest level that still reasons as asked (docs/api.md, "POST /v1/chat/completions").
 */
const EFFORTS: ReadonlyMap<string, ReasoningEffort> = new Map<string, ReasoningEffort>([
  ['none', 'none'],
  ['minimal', 'low'],
  ['low', 'low'],
  ['medium', 'high'],
  ['high', 'high'],
  ['max', 'max'],
]);

export type JsonObject = Record<string, unknown>;

export interface ChatMessage extends JsonObject {
  role: Role;
  content?: unknown;
}

export interface ChatRequest {
  /** The caller's body, parameters unknown to the gateway included. */
  body: JsonObject;
  messages: ChatMessage[];
  stream: boolean;
  /** The caller asked for the final usage chunk (`stream_options.include_usage`). */
  includeUsage: boolean;
  /** Reasoning groups only: the effort asked for, or the group's default. */
  reasoningEffort: ReasoningEffort | undefined;
  /** Whether any message carries an image part. */
  hasImages: boolean;
}

/** A 422 naming the field and what is wrong with it. */
export function invalid(param: string, message: string): GatewayError {
  return new GatewayError('invalid_request', { param, message: `Invalid value for '${param}': ${message}` });
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkContent(content: unknown, path: string, group: ChatGroupConfig): boolean {
  if (typeof content === 'string' || content === null || content === undefined) return false;
  if (!Array.isArray(content)) throw invalid(path, 'must be a string or an array of content parts.');
  let hasImages = false;
  content.forEach((part, j) => {
    const where = `${path}[${j}]`;
    if (!isObject(part)) throw invalid(where, 'must be a content part object.');
    if (part.type === 'text') {
      if (typeof part.text !== 'string') throw invalid(`${where}.text`, 'must be a string.');
    } else if (part.type === 'image_url') {
      if (!group.imageInput) throw invalid(where, `model '${group.id}' does not accept image input.`);
      const image = part.image_url;
      if (!isObject(image) || typeof image.url !== 'string' || !/^(https?:|data:image\/)/.test(image.url)) {
        throw invalid(`${where}.image_url.url`, 'must be an http(s) URL or a data:image/ URL.');
      }
      hasImages = true;
    } else {
      throw invalid(`${where}.type`, 'must be "text" or "image_url".');
    }
  });
  return hasImages;
}

function tokenLimit(body: JsonObject, field: string, group: ChatGroupConfig): void {
  const value = body[field];
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw invalid(field, 'must be a whole number >= 1.');
  if (value > group.maxOutputTokens) throw invalid(field, `must be at most ${group.maxOutputTokens} for model '${group.id}'.`);
}

/** The schema's first complaint, as the caller is told it. */
function schemaError(body: JsonObject): GatewayError {
  for (const error of chatRequestChecker.Errors(body)[1]) {
    const param = paramOf(error.instancePath) || 'body';
    const params = error.params as Record<string, unknown>;
    let message = `${error.message}.`;
    if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) message = `must be one of ${params.allowedValues.join(', ')}.`;
    if (error.keyword === 'required' && Array.isArray(params.requiredProperties)) {
      const missing = params.requiredProperties.map(String).find((name) => !Object.hasOwn(valueAt(body, error.instancePath) ?? {}, name));
      return invalid(missing ? (param === 'body' ? missing : `${param}.${missing}`) : param, 'is required.');
    }
    return invalid(param, message);
  }
  return new GatewayError('invalid_request', { message: 'The request body does not match the chat completions schema.' });
}

function valueAt(body: JsonObject, instancePath: string): JsonObject | undefined {
  let at: unknown = body;
  for (const part of instancePath.split('/').filter(Boolean))
    at = isObject(at) || Array.isArray(at) ? (at as Record<string, unknown>)[part] : undefined;
  return isObject(at) ? at : undefined;
}

export function validateChatRequest(body: unknown, group: ChatGroupConfig): ChatRequest {
  if (!isObject(body)) throw new GatewayError('invalid_request', { message: 'The request body must be a JSON object.' });
  // Depth and finiteness first (no schema states them), then every documented field's type and range.
  const problem = shapeProblem(body);
  if (problem) throw invalid(problem.path || 'body', problem.message);
  if (!chatRequestChecker.Check(body)) throw schemaError(body);
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) throw invalid('messages', 'must be a non-empty array.');
  let hasImages = false;
  messages.forEach((message, i) => {
    const path = `messages[${i}]`;
    if (!isObject(message)) throw invalid(path, 'must be an object.');
    if (typeof message.role !== 'string' || !ROLES.has(message.role)) {
      throw invalid(`${path}.role`, 'must be one of system, user, assistant, tool, developer.');
    }
    if (message.content === undefined && message.role !== 'assistant') throw invalid(`${path}.content`, 'is required.');
    if (checkContent(message.content, `${path}.content`, group)) hasImages = true;
  });

  const temperature = body.temperature;
  if (temperature !== undefined && temperature !== null && (typeof temperature !== 'number' || !(temperature >= 0 && temperature <= 2))) {
    throw invalid('temperature', 'must be a number from 0 to 2.');
  }
  tokenLimit(body, 'max_tokens', group);
  tokenLimit(body, 'max_completion_tokens', group);

  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') throw invalid('stream', 'must be a boolean.');
  const stream = body.stream === true;
  const options = body.stream_options;
  if (options !== undefined && options !== null && !isObject(options)) throw invalid('stream_options', 'must be an object.');
  const includeUsage = stream && isObject(options) && options.include_usage === true;

  let reasoningEffort: ReasoningEffort | undefined;
  if (group.reasoning) {
    const effort = body.reasoning_effort;
    if (effort === undefined || effort === null) reasoningEffort = group.reasoning.defaultEffort;
    else {
      const level = typeof effort === 'string' ? EFFORTS.get(effort) : undefined;
      if (!level) throw invalid('reasoning_effort', 'must be one of none, minimal, low, medium, high, max.');
      reasoningEffort = level;
    }
  }

  return { body, messages: messages as ChatMessage[], stream, includeUsage, reasoningEffort, hasImages };
}
