import { countCompletionTokens, countPromptTokens } from '@gateway/tokenizer';
import { isObject, type ChatRequest, type JsonObject } from './request.js';
import type { ChatUsage } from './usage.js';

// What a call consumed when the upstream's own count never came: the caller left the stream
// (or was cut for not reading), or the upstream ended without a usage block. The vendor bills
// the operator for that call all the same, so the gateway bills its own count: the prompt as
// sent, plus the answer the upstream had sent so far, by the same tokenizer the hold uses.

/** Prompt tokens an image is estimated at when billing (OpenAI's count for a 1024-pixel square at high detail). */
export const ESTIMATED_IMAGE_TOKENS = 765;

/** The answer's text as it arrived, by kind; joined and counted only when an estimate is needed. */
export class CompletionTally {
  readonly #content: string[] = [];
  readonly #reasoning: string[] = [];

  /** One stream chunk's deltas. */
  addChunk(chunk: JsonObject): void {
    const choices = chunk.choices;
    if (!Array.isArray(choices)) return;
    for (const choice of choices) {
      if (isObject(choice) && isObject(choice.delta)) this.#addMessage(choice.delta);
    }
  }

  /** A plain answer's messages. */
  addResponse(response: JsonObject): void {
    const choices = response.choices;
    if (!Array.isArray(choices)) return;
    for (const choice of choices) {
      if (isObject(choice) && isObject(choice.message)) this.#addMessage(choice.message);
    }
  }

  #addMessage(message: JsonObject): void {
    if (typeof message.content === 'string' && message.content !== '') this.#content.push(message.content);
    if (typeof message.reasoning_content === 'string' && message.reasoning_content !== '') this.#reasoning.push(message.reasoning_content);
    const calls = message.tool_calls;
    if (!Array.isArray(calls)) return;
    for (const call of calls) {
      const fn = isObject(call) ? call.function : undefined;
      if (!isObject(fn)) continue;
      if (typeof fn.name === 'string') this.#content.push(fn.name);
      if (typeof fn.arguments === 'string') this.#content.push(fn.arguments);
    }
  }

  /** Completion and reasoning tokens of what arrived. */
  count(): { completion: number; reasoning: number } {
    const reasoning = countCompletionTokens(this.#reasoning);
    return { completion: countCompletionTokens(this.#content) + reasoning, reasoning };
  }
}

/** The usage the gateway bills a call on when the upstream sent none. Nothing counted as cached: the dearer price. */
export function estimateUsage(request: ChatRequest, tally: CompletionTally): ChatUsage {
  const { completion, reasoning } = tally.count();
  return {
    prompt_tokens: estimatePromptTokens(request.body),
    cached_tokens: 0,
    completion_tokens: completion,
    reasoning_tokens: reasoning,
  };
}

/** A chat body's prompt tokens as the gateway counts them: its text and tools, each image at a fixed count. */
export function estimatePromptTokens(body: JsonObject): number {
  const prompt = countPromptTokens(body);
  return prompt.tokens + prompt.images * ESTIMATED_IMAGE_TOKENS;
}
