import { countTextTokens } from '@gateway/tokenizer';
import type { JsonObject } from '../../domain/request.js';
import { PrefixCache } from './cache.js';

// What the demo model reads of a request and the usage it reports: real o200k_base tokens (the
// gateway's own tokenizer), a fixed per-message overhead and a fixed price per image, as
// vendors count them, and the prompt tokens served from its prefix cache.

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

export function read(body: JsonObject): Reading {
  const messages = Array.isArray(body.messages) ? (body.messages as JsonObject[]) : [];
  const perMessage: number[] = [];
  let images = 0;
  let question = '';
  for (const message of messages) {
    const content = message.content;
    let text = '';
    let seen = 0;
    if (typeof content === 'string') text = content;
    else if (Array.isArray(content)) {
      for (const part of content as JsonObject[]) {
        if (part.type === 'text' && typeof part.text === 'string') text += `${part.text} `;
        if (part.type === 'image_url') seen += 1;
      }
    }
    text = text.trim();
    perMessage.push(MESSAGE_TOKENS + countTextTokens(text) + seen * IMAGE_TOKENS);
    images += seen;
    if (message.role === 'user') question = text;
  }
  let promptTokens = 0;
  for (const count of perMessage) promptTokens += count;
  const cachedTokens = cache.cachedTokens(String(body.model ?? ''), messages, perMessage);
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

export function usage(reading: Reading, answer: string, reasoning: string | undefined): JsonObject {
  const reasoningTokens = reasoning ? countTextTokens(reasoning) : 0;
  const completion = countTextTokens(answer) + reasoningTokens;
  return {
    prompt_tokens: reading.promptTokens,
    completion_tokens: completion,
    total_tokens: reading.promptTokens + completion,
    prompt_tokens_details: { cached_tokens: reading.cachedTokens },
    completion_tokens_details: { reasoning_tokens: reasoningTokens },
  };
}
