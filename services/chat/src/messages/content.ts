import type { ChatGroupConfig } from '@gateway/config';
import { invalid, isObject, type ChatMessage, type JsonObject } from '../domain/request.js';

// Anthropic `system` and `messages` as chat messages. A user turn's tool_result blocks become
// tool messages (chat wants them right after the assistant's calls), its other blocks a user
// message after them; an assistant turn's text, tool_use and verified thinking one assistant
// message. `cache_control` on any block is read past: the upstreams cache prefixes themselves.

/** Whether a thinking block's signature is the gateway's own for its text. */
export type VerifyThinking = (text: string, signature: unknown) => boolean;

/** Block types with no place in a chat conversation: server tools' calls and results. */
const SKIPPED =
  /^(server_tool_use|web_search_tool_result|web_fetch_tool_result|code_execution_tool_result|bash_code_execution_tool_result|text_editor_code_execution_tool_result|mcp_tool_use|mcp_tool_result|container_upload|redacted_thinking|tool_search_tool_result)$/;

const MEDIA_TYPES: ReadonlySet<unknown> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** `system` as text: a string, or text blocks joined on lines of their own. */
export function systemText(system: unknown, path = 'system'): string | undefined {
  if (system === undefined || system === null) return undefined;
  if (typeof system === 'string') return system;
  if (!Array.isArray(system)) throw invalid(path, 'must be a string or an array of text blocks.');
  return system
    .map((block, i) => {
      if (!isObject(block) || block.type !== 'text' || typeof block.text !== 'string')
        throw invalid(`${path}[${i}]`, 'must be a text block.');
      return block.text;
    })
    .join('\n');
}

function imagePart(block: JsonObject, path: string, group: ChatGroupConfig): JsonObject {
  if (!group.imageInput) throw invalid(path, `model '${group.id}' does not accept image input.`);
  const source = block.source;
  if (!isObject(source)) throw invalid(`${path}.source`, 'is required.');
  if (source.type === 'url' && typeof source.url === 'string' && /^https?:/.test(source.url))
    return { type: 'image_url', image_url: { url: source.url } };
  if (source.type === 'base64' && typeof source.data === 'string' && MEDIA_TYPES.has(source.media_type)) {
    return { type: 'image_url', image_url: { url: `data:${source.media_type as string};base64,${source.data}` } };
  }
  throw invalid(`${path}.source`, 'must be a base64 image (jpeg, png, gif or webp) or an http(s) URL.');
}

/** A tool_result's content as the tool message's text; an error says so. */
function toolResultText(block: JsonObject, path: string): string {
  const content = block.content;
  let text: string;
  if (typeof content === 'string') text = content;
  else if (content === undefined || content === null) text = '';
  else if (Array.isArray(content)) {
    text = content
      .map((part) =>
        isObject(part) && part.type === 'text' && typeof part.text === 'string'
          ? part.text
          : isObject(part) && part.type === 'image'
            ? '[image]'
            : '',
      )
      .join('\n');
  } else throw invalid(`${path}.content`, 'must be a string or an array of content blocks.');
  return block.is_error === true ? `Error: ${text}` : text;
}

/** Builds the chat messages of a conversation, turn by turn. */
class TurnBuilder {
  readonly messages: ChatMessage[] = [];

  constructor(
    private readonly group: ChatGroupConfig,
    private readonly verify: VerifyThinking,
  ) {}

  user(content: unknown, path: string): void {
    if (typeof content === 'string') {
      this.messages.push({ role: 'user', content });
      return;
    }
    const parts: JsonObject[] = [];
    for (const [j, block] of this.#blocks(content, path)) {
      const where = `${path}[${j}]`;
      if (block.type === 'tool_result') {
        if (typeof block.tool_use_id !== 'string' || block.tool_use_id === '')
          throw invalid(`${where}.tool_use_id`, 'must be a non-empty string.');
        this.messages.push({ role: 'tool', tool_call_id: block.tool_use_id, content: toolResultText(block, where) });
      } else if (block.type === 'text') parts.push({ type: 'text', text: this.#text(block, where) });
      else if (block.type === 'image') parts.push(imagePart(block, where, this.group));
      else this.#other(block, where);
    }
    if (parts.length === 0) return;
    const textOnly = parts.every((part) => part.type === 'text');
    this.messages.push({ role: 'user', content: textOnly ? parts.map((part) => part.text as string).join('\n') : parts });
  }

  assistant(content: unknown, path: string): void {
    if (typeof content === 'string') {
      this.messages.push({ role: 'assistant', content });
      return;
    }
    const texts: string[] = [];
    const calls: JsonObject[] = [];
    let reasoning: string | undefined;
    for (const [j, block] of this.#blocks(content, path)) {
      const where = `${path}[${j}]`;
      if (block.type === 'text') texts.push(this.#text(block, where));
      else if (block.type === 'tool_use') calls.push(toolCall(block, where));
      // A thinking block is read back only when the gateway signed it; any other is dropped, never refused.
      else if (block.type === 'thinking') {
        if (typeof block.thinking === 'string' && this.verify(block.thinking, block.signature)) {
          reasoning = reasoning === undefined ? block.thinking : `${reasoning}\n${block.thinking}`;
        }
      } else this.#other(block, where);
    }
    const message: ChatMessage = { role: 'assistant', content: texts.length > 0 ? texts.join('\n') : null };
    if (calls.length > 0) message.tool_calls = calls;
    if (reasoning !== undefined) message.reasoning_content = reasoning;
    if (message.content !== null || calls.length > 0) this.messages.push(message);
  }

  *#blocks(content: unknown, path: string): Generator<[number, JsonObject]> {
    if (!Array.isArray(content)) throw invalid(path, 'must be a string or an array of content blocks.');
    for (const [j, block] of content.entries()) {
      if (!isObject(block) || typeof block.type !== 'string') throw invalid(`${path}[${j}].type`, 'must be a content block with a type.');
      yield [j, block];
    }
  }

  #text(block: JsonObject, path: string): string {
    if (typeof block.text !== 'string') throw invalid(`${path}.text`, 'must be a string.');
    return block.text;
  }

  #other(block: JsonObject, path: string): void {
    if (SKIPPED.test(block.type as string)) return;
    throw invalid(
      `${path}.type`,
      `'${String(block.type)}' is not a content block the gateway reads (documents and files are not supported).`,
    );
  }
}

function toolCall(block: JsonObject, path: string): JsonObject {
  if (typeof block.id !== 'string' || block.id === '') throw invalid(`${path}.id`, 'must be a non-empty string.');
  if (typeof block.name !== 'string' || block.name === '') throw invalid(`${path}.name`, 'must be a non-empty string.');
  const input = block.input ?? {};
  if (!isObject(input)) throw invalid(`${path}.input`, 'must be an object.');
  return { id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(input) } };
}

/** The chat messages of a Messages request: `system` first, then each turn in order. */
export function chatMessages(system: string | undefined, messages: unknown, group: ChatGroupConfig, verify: VerifyThinking): ChatMessage[] {
  if (!Array.isArray(messages) || messages.length === 0) throw invalid('messages', 'must be a non-empty array.');
  const builder = new TurnBuilder(group, verify);
  if (system) builder.messages.push({ role: 'system', content: system });
  messages.forEach((message, i) => {
    const path = `messages[${i}]`;
    if (!isObject(message)) throw invalid(path, 'must be an object.');
    if (message.role === 'user') builder.user(message.content, `${path}.content`);
    else if (message.role === 'assistant') builder.assistant(message.content, `${path}.content`);
    // Claude Code sends its instructions this way for a model name that is not a Claude one.
    else if (message.role === 'system')
      builder.messages.push({ role: 'system', content: systemText(message.content, `${path}.content`) ?? '' });
    else throw invalid(`${path}.role`, 'must be user or assistant.');
  });
  return builder.messages;
}
