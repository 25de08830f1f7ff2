import { countTextTokens } from '@gateway/tokenizer';
import type { JsonObject } from '../../domain/request.js';
import { PrefixCache } from './cache.js';
import { contentText } from '@gateway/tool-markers';

// What the demo model reads of a request and the usage it reports: real o200k_base tokens (the
// gateway's own tokenizer), a fixed per-message overhead and a fixed price per image, as
// vendors count them, tool definitions and earlier tool calls included, and the prompt tokens
// served from its prefix cache.

/** What an image costs in prompt tokens (a low-detail image, as vendors count one). */
const IMAGE_TOKENS = 85;
/** The tokens a message's framing (role, separators) costs, as OpenAI's chat format adds. */
const MESSAGE_TOKENS = 4;

/** One per gateway process: the demo "deployment" whose cache repeated prompts hit. */
const cache = new PrefixCache();

export interface Reading {
  /** The last user message's text. */
  question: string;
  promptTokens: number;
  /** Of promptTokens, those served from the prefix cache. */
  cachedTokens: number;
  images: number;
}

/** The tokens of an assistant message's tool calls: each name and its arguments. */
function toolCallTokens(calls: unknown): number {
  if (!Array.isArray(calls)) return 0;
  let tokens = 0;
  for (const call of calls as JsonObject[]) {
    const fn = call?.function as JsonObject | undefined;
    if (typeof fn?.name === 'string') tokens += countTextTokens(fn.name);
    if (typeof fn?.arguments === 'string') tokens += countTextTokens(fn.arguments);
  }
  return tokens;
}

export function read(body: JsonObject): Reading {
  const messages = Array.isArray(body.messages) ? (body.messages as JsonObject[]) : [];
  // Tool definitions come first in a vendor's prompt, so they are the first "message" cached.
  const tools = Array.isArray(body.tools) && body.tools.length > 0 ? body.tools : undefined;
  const parts: unknown[] = tools ? [{ tools }, ...messages] : messages;
  const perMessage: number[] = tools ? [countTextTokens(JSON.stringify(tools))] : [];
  let images = 0;
  let question = '';
  for (const message of messages) {
    const content = message.content;
    const text = contentText(content).trim();
    const seen = Array.isArray(content) ? (content as JsonObject[]).filter((part) => part?.type === 'image_url').length : 0;
    perMessage.push(MESSAGE_TOKENS + countTextTokens(text) + seen * IMAGE_TOKENS + toolCallTokens(message.tool_calls));
    images += seen;
    if (message.role === 'user') question = text;
  }
  let promptTokens = 0;
  for (const count of perMessage) promptTokens += count;
  const cachedTokens = cache.cachedTokens(String(body.model ?? ''), parts, perMessage);
  return { question, promptTokens, cachedTokens, images };
}

/** Words of `text` from the start, as many as fit in `maxTokens` (at least one), as a model stops. */
export function cut(text: string, maxTokens: number): string {
  if (countTextTokens(text) <= maxTokens) return text;
  const words = text.split(' ');
  let kept = 1;
  while (kept < words.length && countTextTokens(words.slice(0, kept + 1).join(' ')) <= maxTokens) kept += 1;
  return words.slice(0, kept).join(' ');
}

/** The usage of an answer whose completion is `completion` (the text, or each tool call's name and arguments). */
export function usage(reading: Reading, completion: readonly string[], reasoning: string | undefined): JsonObject {
  const reasoningTokens = reasoning ? countTextTokens(reasoning) : 0;
  let completionTokens = reasoningTokens;
  for (const text of completion) completionTokens += countTextTokens(text);
  return {
    prompt_tokens: reading.promptTokens,
    completion_tokens: completionTokens,
    total_tokens: reading.promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: reading.cachedTokens },
    completion_tokens_details: { reasoning_tokens: reasoningTokens },
  };
}
