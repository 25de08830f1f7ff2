import type { ChatGroupConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import type { ChatCompletions, ChunkDialect, CompletionInput, MeteredUsage } from '../domain/completions.js';
import { estimatePromptTokens } from '../domain/estimate.js';
import { validateChatRequest, type ChatRequest, type JsonObject } from '../domain/request.js';
import type { ChatUsage } from '../domain/usage.js';
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

/** Writes a stream's frames; the first write names the dropped tools, the last what the call was metered at. */
export type MessageWrite = (events: Buffer[], usage?: MeteredUsage, dropped?: string[]) => Promise<void>;

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
  async stream(input: MessageInput, write: MessageWrite): Promise<void> {
    const call = this.#prepare(input);
    if (!call.translated.stream) throw new GatewayError('invalid_request', { param: 'stream', message: 'Plain calls use the unary RPC.' });
    const events = new MessageEvents(call.shell);
    // message_start goes out with the first chunk's events: until then a failure is still an HTTP status.
    let started = false;
    const opening = (): Buffer[] => {
      if (started) return [];
      started = true;
      return events.start();
    };
    const dialect: ChunkDialect = {
      chunk: (chunk) => [...opening(), ...events.chunk(chunk)],
      end: async (usage: ChatUsage) => [...opening(), ...events.finish(usage)],
    };
    let named = false;
    await this.completions.streamPrepared(
      input,
      call.group,
      call.chat,
      (frames, usage) => {
        // The dropped tools ride on the first message, before the edge writes its headers.
        const dropped = named ? undefined : call.translated.dropped;
        named = true;
        return write(frames, usage, dropped);
      },
      dialect,
    );
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
