import { timeOrderedHex } from '@gateway/contracts';
import { isObject, type JsonObject } from '../domain/request.js';
import { readUsage, type ChatUsage } from '../domain/usage.js';
import type { MessageShell } from './shell.js';
import { messageUsage } from './usage.js';

// A chat completion as an Anthropic message: its reasoning a signed thinking block, its text a
// text block, each tool call a tool_use block, in the order a model produces them; its finish
// reason the stop_reason. The block builders are shared with the streamed translation.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `toolu_` and 24 letters or digits, Anthropic's shape: the gateway's time-ordered 128 bits in base 62, zero-padded so they still sort. */
export function newToolUseId(): string {
  let n = BigInt(`0x${timeOrderedHex()}`);
  let digits = '';
  while (n > 0n) {
    digits = BASE62[Number(n % 62n)] + digits;
    n /= 62n;
  }
  return `toolu_${digits.padStart(24, '0')}`;
}

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

export interface Stop {
  stop_reason: StopReason;
  stop_sequence: string | null;
  /** What the SDK's Message carries beside stop_reason: a refusal's details, else null. */
  stop_details: JsonObject | null;
}

/**
 * The stop for a chat choice's finish reason. Chat upstreams strip a matched stop sequence from
 * the text, so `stop_sequence` shows only when the upstream names it (vLLM's `stop_reason`,
 * SGLang's `matched_stop`) and it is one the caller sent. Tool calls under a plain `stop` (some
 * upstreams send that) still stop for `tool_use`: clients run the tools on it.
 */
export function stopOf(shell: MessageShell, choice: JsonObject, hasToolUse: boolean): Stop {
  const reason = choice.finish_reason;
  const stop = (stop_reason: StopReason, stop_details: JsonObject | null = null): Stop => ({
    stop_reason,
    stop_sequence: null,
    stop_details,
  });
  if (reason === 'length') return stop('max_tokens');
  if (reason === 'content_filter') return stop('refusal', { type: 'refusal', category: null, explanation: null });
  if (reason === 'tool_calls' || reason === 'function_call' || hasToolUse) return stop('tool_use');
  const matched = [choice.stop_reason, choice.matched_stop].find(
    (value) => typeof value === 'string' && shell.stopSequences.includes(value),
  );
  if (reason === 'stop' && typeof matched === 'string') return { stop_reason: 'stop_sequence', stop_sequence: matched, stop_details: null };
  return stop('end_turn');
}

export function thinkingBlock(shell: MessageShell, text: string): JsonObject {
  return { type: 'thinking', thinking: text, signature: shell.signThinking(text) };
}

export function textBlock(text: string): JsonObject {
  return { type: 'text', text };
}

/**
 * A tool call's arguments as the tool_use `input` object. Arguments that are not a JSON object
 * (an upstream's malformed or truncated JSON) become `{}`: Anthropic's input is always an object,
 * and a tool called with none of its arguments fails its own validation where the caller sees it.
 */
export function toolInput(args: string): JsonObject {
  try {
    const parsed: unknown = JSON.parse(args);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export function toolUseBlock(id: string, name: string, args: string): JsonObject {
  return { type: 'tool_use', id, name, input: toolInput(args) };
}

/** The message before its answer: no content, no stop yet, `usage` as known so far. */
export function messageBase(shell: MessageShell, usage: JsonObject): JsonObject {
  return {
    id: shell.id,
    type: 'message',
    role: 'assistant',
    model: shell.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    stop_details: null,
    usage,
  };
}

const NO_USAGE: ChatUsage = { prompt_tokens: 0, cached_tokens: 0, completion_tokens: 0, reasoning_tokens: 0 };

export function finishedMessage(shell: MessageShell, content: JsonObject[], stop: Stop, usage: ChatUsage): JsonObject {
  return { ...messageBase(shell, messageUsage(usage)), content, ...stop };
}

function toolUseBlocks(value: unknown): JsonObject[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((call) => {
    const fn = isObject(call.function) ? call.function : {};
    const id = typeof call.id === 'string' && call.id !== '' ? call.id : newToolUseId();
    return toolUseBlock(id, typeof fn.name === 'string' ? fn.name : '', typeof fn.arguments === 'string' ? fn.arguments : '');
  });
}

/** A `chat.completion` as the message it answers; `usage` overrides the completion's own block. */
export function messageFromCompletion(shell: MessageShell, completion: JsonObject, usage?: ChatUsage): JsonObject {
  const choice = Array.isArray(completion.choices) && isObject(completion.choices[0]) ? completion.choices[0] : {};
  const message = isObject(choice.message) ? choice.message : {};
  const content: JsonObject[] = [];
  const reasoning = message.reasoning_content;
  if (typeof reasoning === 'string' && reasoning !== '') content.push(thinkingBlock(shell, reasoning));
  const text = message.content;
  if (typeof text === 'string' && text !== '') content.push(textBlock(text));
  const calls = toolUseBlocks(message.tool_calls);
  content.push(...calls);
  const stop = stopOf(shell, choice, calls.length > 0);
  return finishedMessage(shell, content, stop, usage ?? readUsage(completion.usage) ?? NO_USAGE);
}
