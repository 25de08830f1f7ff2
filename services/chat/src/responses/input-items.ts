import type { ChatGroupConfig } from '@gateway/config';
import { invalid, isObject, type ChatMessage, type JsonObject, type Role } from '../domain/request.js';
import { newItemId, type ItemIdPrefix } from './ids.js';

// A Responses `input` (a string, or a list of items) as chat messages. Items are read as real
// clients write them: ids the gateway never issued, `status` fields, messages without `type`,
// reasoning items with `content: null`, only `encrypted_content`, or only an id. Items a chat
// upstream has no place for (hosted tools' calls, references) are left out.

/** Reads a reasoning item's sealed text back; undefined when it does not open (then it is dropped). */
export type OpenReasoning = (sealed: string) => string | undefined;

const MESSAGE_ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'system', 'developer']);

/** Item types whose turn a chat upstream cannot replay: hosted tools' calls and their outputs. */
const SKIPPED =
  /^(web_search_call|file_search_call|computer_call|computer_call_output|image_generation_call|code_interpreter_call|local_shell_call|local_shell_call_output|shell_call|shell_call_output|apply_patch_call|apply_patch_call_output|mcp_.*|custom_tool_call|custom_tool_call_output|item_reference|compaction|compaction_trigger|tool_search_call|tool_search_output|additional_tools|configuration_update|program|program_output)$/;

/** The id an input item gets when its caller gave it none, by type. */
const ID_PREFIXES: ReadonlyMap<string, ItemIdPrefix> = new Map<string, ItemIdPrefix>([
  ['message', 'msg'],
  ['reasoning', 'rs'],
  ['function_call', 'fc'],
  ['function_call_output', 'fco'],
]);

/** The input as items, each with an id (kept when the caller gave one) so stored turns can be listed. */
export function inputItems(input: unknown): JsonObject[] {
  if (typeof input === 'string') return [{ id: newItemId('msg'), type: 'message', role: 'user', content: input }];
  if (!Array.isArray(input)) throw invalid('input', 'must be a string or an array of input items.');
  return input.map((item, i) => {
    if (typeof item === 'string') return { id: newItemId('msg'), type: 'message', role: 'user', content: item };
    if (!isObject(item)) throw invalid(`input[${i}]`, 'must be an input item object.');
    const type = item.type ?? 'message';
    if (typeof type !== 'string') throw invalid(`input[${i}].type`, 'must be a string.');
    const id = typeof item.id === 'string' && item.id !== '' ? item.id : newItemId(ID_PREFIXES.get(type) ?? 'item');
    return { ...item, type, id };
  });
}

/** One content part as a chat part; images only where the group takes them. */
function chatPart(part: unknown, path: string, group: ChatGroupConfig): JsonObject {
  if (typeof part === 'string') return { type: 'text', text: part };
  if (!isObject(part)) throw invalid(path, 'must be a content part object.');
  switch (part.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      if (typeof part.text !== 'string') throw invalid(`${path}.text`, 'must be a string.');
      return { type: 'text', text: part.text };
    case 'refusal':
      return { type: 'text', text: typeof part.refusal === 'string' ? part.refusal : '' };
    case 'input_image': {
      if (!group.imageInput) throw invalid(path, `model '${group.id}' does not accept image input.`);
      const url = part.image_url;
      if (typeof url !== 'string' || !/^(https?:|data:image\/)/.test(url)) {
        throw invalid(`${path}.image_url`, 'must be an http(s) URL or a data:image/ URL (file ids are not supported).');
      }
      const detail = part.detail;
      return { type: 'image_url', image_url: typeof detail === 'string' ? { url, detail } : { url } };
    }
    default:
      throw invalid(`${path}.type`, 'must be one of input_text, input_image, output_text, refusal (files and audio are not supported).');
  }
}

/** A message's content: text alone becomes a string (what every upstream takes), images stay parts. */
function chatContent(content: unknown, path: string, group: ChatGroupConfig): string | JsonObject[] {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) throw invalid(path, 'must be a string or an array of content parts.');
  const parts = content.map((part, j) => chatPart(part, `${path}[${j}]`, group));
  // Text alone is a plain string (what every upstream takes), its parts on lines of their own.
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => part.text as string).join('\n');
  return parts;
}

/** A tool's output as the tool message's text: a string, or the text of its parts. */
function outputText(output: unknown, path: string): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
  if (output === undefined || output === null) throw invalid(path, 'is required.');
  return JSON.stringify(output);
}

/**
 * The reasoning an item carries, as only the gateway can have written it: its sealed text. A
 * summary is the caller's to edit, so it is never read back as the model's own reasoning.
 */
function reasoningText(item: JsonObject, open: OpenReasoning): string | undefined {
  if (typeof item.encrypted_content === 'string' && item.encrypted_content !== '') return open(item.encrypted_content);
  return undefined;
}

/** Builds the chat messages of a conversation's items, in order. */
class MessageBuilder {
  readonly messages: ChatMessage[] = [];
  /** Reasoning read from an item, for the assistant turn that follows it. */
  #reasoning: string | undefined;

  constructor(
    private readonly group: ChatGroupConfig,
    private readonly open: OpenReasoning,
  ) {}

  /** The assistant message a tool call joins: the last one, unless something came after it. */
  #assistant(): ChatMessage {
    const last = this.messages.at(-1);
    if (last?.role === 'assistant') return last;
    const message: ChatMessage = { role: 'assistant', content: null };
    if (this.#reasoning !== undefined) message.reasoning_content = this.#reasoning;
    this.#reasoning = undefined;
    this.messages.push(message);
    return message;
  }

  add(item: JsonObject, path: string): void {
    const type = item.type as string;
    if (type === 'message') this.#message(item, path);
    else if (type === 'function_call') this.#functionCall(item, path);
    else if (type === 'function_call_output') {
      if (typeof item.call_id !== 'string' || item.call_id === '') throw invalid(`${path}.call_id`, 'must be a non-empty string.');
      this.messages.push({ role: 'tool', tool_call_id: item.call_id, content: outputText(item.output, `${path}.output`) });
    } else if (type === 'reasoning') this.#reasoning = reasoningText(item, this.open);
    else if (!SKIPPED.test(type)) throw invalid(`${path}.type`, `'${type}' is not an input item type the gateway reads.`);
  }

  #message(item: JsonObject, path: string): void {
    const role = item.role;
    if (typeof role !== 'string' || !MESSAGE_ROLES.has(role))
      throw invalid(`${path}.role`, 'must be one of user, assistant, system, developer.');
    const content = chatContent(item.content, `${path}.content`, this.group);
    if (role === 'assistant') {
      // An assistant turn as one text: not every upstream takes parts there.
      const text = typeof content === 'string' ? content : content.map((p) => p.text ?? '').join('\n');
      const message: ChatMessage = { role: 'assistant', content: text };
      if (this.#reasoning !== undefined) message.reasoning_content = this.#reasoning;
      this.#reasoning = undefined;
      this.messages.push(message);
      return;
    }
    this.messages.push({ role: role as Role, content });
  }

  #functionCall(item: JsonObject, path: string): void {
    const { call_id: callId, name, arguments: args } = item;
    if (typeof callId !== 'string' || callId === '') throw invalid(`${path}.call_id`, 'must be a non-empty string.');
    if (typeof name !== 'string' || name === '') throw invalid(`${path}.name`, 'must be a non-empty string.');
    if (args !== undefined && typeof args !== 'string') throw invalid(`${path}.arguments`, 'must be a string of JSON.');
    const message = this.#assistant();
    const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
    calls.push({ id: callId, type: 'function', function: { name, arguments: args ?? '' } });
    message.tool_calls = calls;
  }
}

/**
 * The chat messages of a conversation: `instructions` first as a system message, then every
 * item in order. Earlier reasoning rides on the assistant turn it preceded as
 * `reasoning_content`, which each provider strips where its upstream must not receive it.
 */
export function chatMessages(
  instructions: string | undefined,
  items: readonly JsonObject[],
  paths: readonly string[],
  group: ChatGroupConfig,
  open: OpenReasoning,
): ChatMessage[] {
  const builder = new MessageBuilder(group, open);
  if (instructions) builder.messages.push({ role: 'system', content: instructions });
  items.forEach((item, i) => {
    builder.add(item, paths[i] ?? `input[${i}]`);
  });
  return builder.messages;
}
