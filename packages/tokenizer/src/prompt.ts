import { Buffer } from 'node:buffer';
import { promptMemo } from './memo.js';
import { TokenTally } from './tally.js';

/** A chat body's prompt as an upstream bills it: text tokens, and image parts counted apart. */
export interface PromptCount {
  tokens: number;
  /**
   * The part of `tokens` from texts with characters beyond ASCII: where other vendors'
   * vocabularies can need far more tokens than o200k's (the hold raises these more).
   */
  wideTokens: number;
  /** Image parts; the caller multiplies by its per-image tokens. */
  images: number;
  /** Tool (and legacy function) definitions. */
  tools: number;
}

/** Any character beyond ASCII. */
const WIDE = /[^\t\n\r\u0020-\u007e]/;

/**
 * A body's texts in order, gathered before any is counted: a small prompt is held on its bytes
 * and never tokenized (see hold.ts); a counted one is split in two tallies, ASCII texts
 * (English, code, JSON: within a few percent across vocabularies) and the rest, so the hold can
 * raise each by its own measured worst.
 */
export class PromptTexts {
  readonly texts: string[] = [];
  /** UTF-16 length of every text. */
  chars = 0;

  add(text: string): void {
    if (text.length === 0) return;
    this.texts.push(text);
    this.chars += text.length;
  }

  /** Tokenizes every text and adds the totals to the count. */
  countInto(count: PromptCount): void {
    const ascii = new TokenTally(promptMemo);
    const wide = new TokenTally(promptMemo);
    // Control characters count as wide too: rare, and never worth a smaller hold.
    for (const text of this.texts) (WIDE.test(text) ? wide : ascii).add(text);
    const wideTokens = wide.total();
    count.wideTokens += wideTokens;
    count.tokens += ascii.total() + wideTokens;
  }

  /** UTF-8 bytes of every text: more than the tokens any byte-level BPE tokenizer makes of them. */
  bytes(): number {
    let bytes = 0;
    for (const text of this.texts) bytes += Buffer.byteLength(text, 'utf8');
    return bytes;
  }
}

// OpenAI's cookbook ("How to count tokens with tiktoken", gpt-4/gpt-4o rows, matching the API's
// usage): each message is <|start|>{role}<|message|>{content}<|end|>, 3 tokens plus its role's; a
// `name` costs 1 more than its text; the reply is primed with <|start|>assistant<|message|>, 3.
export const TOKENS_PER_MESSAGE = 3;
export const TOKENS_PER_NAME = 1;
export const REPLY_PRIMING_TOKENS = 3;
// DeepSeek's template wraps each call as <｜tool▁call▁begin｜>function<｜tool▁sep｜>{name}
// "\n```json\n"{arguments}"\n```"<｜tool▁call▁end｜>: 8 tokens besides the name and arguments.
export const TOKENS_PER_TOOL_CALL = 8;
// The cookbook's gpt-4o figures for tool definitions: 7 per function, 12 once for the block.
export const TOKENS_PER_TOOL = 7;
export const TOOLS_BLOCK_TOKENS = 12;

type JsonObject = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Roles are one token each in o200k_base (checked in the tests), so none is tokenized per
// message, and reading a small prompt never loads the tokenizer.
const ROLE_TOKENS: ReadonlyMap<string, number> = new Map(
  ['system', 'developer', 'user', 'assistant', 'tool', 'function'].map((role) => [role, 1]),
);

/** The JSON text of a value, or nothing for a value JSON cannot hold (or too deep to write). */
function jsonText(value: unknown): string | undefined {
  try {
    const text = JSON.stringify(value);
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

function addString(tally: PromptTexts, value: unknown): void {
  if (typeof value === 'string') tally.add(value);
}

function addJson(tally: PromptTexts, value: unknown): void {
  if (value === undefined || value === null) return;
  const text = jsonText(value);
  if (text !== undefined) tally.add(text);
}

function addContent(tally: PromptTexts, count: PromptCount, content: unknown): void {
  if (typeof content === 'string') {
    tally.add(content);
    return;
  }
  if (!Array.isArray(content)) return;
  for (const part of content) {
    if (!isObject(part)) continue;
    if (part.type === 'image_url' || part.type === 'image') count.images += 1;
    else addString(tally, part.text);
  }
}

/** A called function: its name and arguments (a string as specified; an object's JSON otherwise). */
function addCall(tally: PromptTexts, count: PromptCount, call: unknown): void {
  if (!isObject(call)) return;
  count.tokens += TOKENS_PER_TOOL_CALL;
  addString(tally, call.name);
  if (typeof call.arguments === 'string') tally.add(call.arguments);
  else addJson(tally, call.arguments);
}

function addMessage(tally: PromptTexts, count: PromptCount, message: unknown): void {
  if (!isObject(message)) return;
  count.tokens += TOKENS_PER_MESSAGE;
  const role = message.role;
  if (typeof role === 'string') {
    const known = ROLE_TOKENS.get(role);
    if (known === undefined) tally.add(role);
    else count.tokens += known;
  }
  addContent(tally, count, message.content);
  if (typeof message.name === 'string') {
    count.tokens += TOKENS_PER_NAME;
    tally.add(message.name);
  }
  addString(tally, message.tool_call_id);
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) if (isObject(call)) addCall(tally, count, call.function);
  }
  addCall(tally, count, message.function_call);
}

/**
 * Function definitions, counted as their JSON: one key for the whole list, which agents re-send
 * unchanged every turn. Vendors render them in their own way: OpenAI as a TypeScript-like
 * namespace (fewer tokens than the JSON), DeepSeek (V3.1 template) as name, description and the
 * parameters' JSON; the JSON is an estimate at or above either.
 */
function addTools(tally: PromptTexts, count: PromptCount, tools: unknown): void {
  if (!Array.isArray(tools) || tools.length === 0) return;
  count.tokens += TOOLS_BLOCK_TOKENS + TOKENS_PER_TOOL * tools.length;
  count.tools += tools.length;
  addJson(tally, tools);
}

/**
 * The best estimate of what an OpenAI-compatible upstream bills as prompt tokens for a chat
 * body: messages (role overhead, text, names, tool calls, tool results), tool definitions, an
 * object `tool_choice` and a `response_format` JSON schema. Never throws on odd shapes: what
 * is not as specified is skipped.
 */
export function countPromptTokens(body: Readonly<Record<string, unknown>>): PromptCount {
  const { count, texts } = readPrompt(body);
  texts.countInto(count);
  return count;
}

/**
 * A body's prompt parts, not yet tokenized: `count` holds the tokens of its fixed overheads
 * (messages, names, tool calls and definitions), its images and tool definitions; `texts` its
 * texts in order.
 */
export function readPrompt(body: Readonly<Record<string, unknown>>): { count: PromptCount; texts: PromptTexts } {
  const texts = new PromptTexts();
  if (!isObject(body)) return { count: { tokens: 0, wideTokens: 0, images: 0, tools: 0 }, texts };
  const count: PromptCount = { tokens: REPLY_PRIMING_TOKENS, wideTokens: 0, images: 0, tools: 0 };
  if (Array.isArray(body.messages)) for (const message of body.messages) addMessage(texts, count, message);
  addTools(texts, count, body.tools);
  addTools(texts, count, body.functions);
  if (isObject(body.tool_choice)) addJson(texts, body.tool_choice);
  if (isObject(body.function_call)) addJson(texts, body.function_call);
  const format = body.response_format;
  if (isObject(format) && isObject(format.json_schema)) addJson(texts, format.json_schema);
  return { count, texts };
}
