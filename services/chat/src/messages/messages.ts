import type { ChatGroupConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { dialectStream, type DialectWrite } from '../domain/dialect-stream.js';
import type { ChatCompletions, CompletionInput, MeteredUsage } from '../domain/completions.js';
import { estimatePromptTokens } from '../domain/estimate.js';
import { validateChatRequest, type ChatRequest, type JsonObject } from '../domain/request.js';
import { messageFromCompletion } from './output.js';
import { readMessagesBody, translateMessages, type TranslatedMessages } from './request.js';
import type { MessageShell } from './shell.js';
import { signThinking, verifyThinking } from './signature.js';
import { MessageEvents } from './stream-events.js';

// The Anthropic Messages API on the chat pipeline: the request translated onto a chat
// completion, the very same routing, budget hold, metering and logs, and the answer translated
// back into Anthropic's message and event grammar. Nothing is stored: Messages is stateless.

export interface MessageInput extends CompletionInput {
  /** The message's id (msg_…): the call's completion id too, so spend logs name it. */
  completionId: string;
}

interface Prepared {
  translated: TranslatedMessages;
  group: ChatGroupConfig;
  chat: ChatRequest;
  shell: MessageShell;
}

function parse(bytes: Buffer): JsonObject {
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new GatewayError('invalid_json');
  }
  return readMessagesBody(body);
}

export class AnthropicMessages {
  readonly #verify: (text: string, signature: unknown) => boolean;

  constructor(
    private readonly completions: ChatCompletions,
    /** Signs thinking blocks, so only the gateway's own come back as reasoning (GATEWAY_ENCRYPTION_KEY). */
    private readonly key: Buffer,
  ) {
    this.#verify = (text, signature) => verifyThinking(key, text, signature);
  }

  /** A plain call: the message as JSON bytes, what it was metered at, the tools dropped. */
  async create(input: MessageInput): Promise<{ body: Buffer; usage: MeteredUsage; dropped: string[] }> {
    const call = this.#prepare(input);
    if (call.translated.stream)
      throw new GatewayError('invalid_request', { param: 'stream', message: 'Streamed calls use the streaming RPC.' });
    const { response, usage } = await this.completions.complete(input, call.group, call.chat);
    const message = messageFromCompletion(call.shell, response);
    return { body: Buffer.from(JSON.stringify(message)), usage, dropped: call.translated.dropped };
  }

  /** A streamed call: Anthropic's events as SSE frames, message_start with the first chunk. */
  async stream(input: MessageInput, write: DialectWrite): Promise<void> {
    const call = this.#prepare(input);
    if (!call.translated.stream) throw new GatewayError('invalid_request', { param: 'stream', message: 'Plain calls use the unary RPC.' });
    const stream = dialectStream(new MessageEvents(call.shell), call.translated.dropped, write);
    await this.completions.streamPrepared(input, call.group, call.chat, stream.write, stream.dialect);
  }

  /** count_tokens: the prompt's input tokens, counted as an estimated bill counts them. */
  countTokens(groupId: string, body: Buffer): number {
    const group = this.completions.groupOf(groupId);
    const translated = translateMessages(parse(body), group, this.#verify, true);
    // Refused as /v1/messages would refuse it: a count is for a call that can be made.
    validateChatRequest(translated.chatBody, group);
    return estimatePromptTokens(translated.chatBody);
  }

  #prepare(input: MessageInput): Prepared {
    const body = parse(input.body);
    const group = this.completions.groupOf(input.groupId);
    const translated = translateMessages(body, group, this.#verify);
    const chat = validateChatRequest(translated.chatBody, group);
    const stops = translated.chatBody.stop;
    const shell: MessageShell = {
      id: input.completionId,
      model: input.model,
      signThinking: (text) => signThinking(this.key, text),
      stopSequences: Array.isArray(stops) ? (stops as string[]) : [],
    };
    return { translated, group, chat, shell };
  }
}
