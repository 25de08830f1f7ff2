import type { ChatGroupConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { fieldsOf, type Logger } from '@gateway/logging';
import { dialectStream, type DialectWrite } from '../domain/dialect-stream.js';
import type { ChatCompletions, CompletionInput, MeteredUsage } from '../domain/completions.js';
import { isObject, validateChatRequest, type ChatRequest, type JsonObject } from '../domain/request.js';
import { responseFromCompletion } from './output.js';
import { readResponsesRequest, translateRequest, type ResponsesRequest, type TranslatedRequest } from './request.js';
import { openReasoning, sealReasoning } from './sealed-reasoning.js';
import type { ResponseShell } from './shell.js';
import type { ResponseStore, StoreContext } from './storage.js';
import { ResponseEvents } from './stream-events.js';

// The Responses API on the chat pipeline: the request translated onto a chat completion, the
// very same routing, budget hold, metering and logs, and the answer translated back; stored
// (when asked) before the caller hears the end, so the next turn finds it on any replica.

export interface ResponseInput extends CompletionInput {
  /** The response's id (resp_…): the call's completion id too, so spend logs name it. */
  completionId: string;
  /** The operator keeps no responses for this key. */
  storageOff: boolean;
}

interface Prepared {
  asked: ResponsesRequest;
  translated: TranslatedRequest;
  group: ChatGroupConfig;
  chat: ChatRequest;
  shell: ResponseShell;
}

export class Responses {
  constructor(
    private readonly completions: ChatCompletions,
    /** Without one, nothing is kept: every key is as if its storage were off. */
    private readonly store: ResponseStore | undefined,
    /** Seals reasoning items for stateless turns (`include: ["reasoning.encrypted_content"]`). */
    private readonly sealKey: Buffer,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A plain call: the response object as JSON bytes, what it was metered at, the tools dropped. */
  async create(input: ResponseInput): Promise<{ body: Buffer; usage: MeteredUsage; dropped: string[] }> {
    const call = await this.#prepare(input);
    if (call.asked.stream) throw new GatewayError('invalid_request', { param: 'stream', message: 'Streamed calls use the streaming RPC.' });
    const { response: completion, usage } = await this.completions.complete(input, call.group, call.chat);
    const body = Buffer.from(JSON.stringify(responseFromCompletion(call.shell, completion)));
    await this.#keep(input, call, body);
    return { body, usage, dropped: call.translated.dropped };
  }

  /** A streamed call: Responses events as SSE frames, stored before `response.completed` goes out. */
  async stream(input: ResponseInput, write: DialectWrite): Promise<void> {
    const call = await this.#prepare(input);
    if (!call.asked.stream) throw new GatewayError('invalid_request', { param: 'stream', message: 'Plain calls use the unary RPC.' });
    const events = new ResponseEvents(call.shell);
    // Stored before `response.completed` goes out, so the next turn finds it on any replica.
    const stream = dialectStream(events, call.translated.dropped, write, () => this.#keep(input, call, Buffer.from(events.responseJson)));
    await this.completions.streamPrepared(input, call.group, call.chat, stream.write, stream.dialect);
  }

  async #prepare(input: ResponseInput): Promise<Prepared> {
    let body: unknown;
    try {
      body = JSON.parse(input.body.toString('utf8'));
    } catch {
      throw new GatewayError('invalid_json');
    }
    const asked = readResponsesRequest(body, input.storageOff || !this.store);
    const group = this.completions.groupOf(input.groupId);
    const earlier = asked.previousResponseId ? await this.#earlier(input, asked.previousResponseId) : [];
    const translated = translateRequest(asked, group, earlier, (sealed) => openReasoning(this.sealKey, sealed));
    const chat = validateChatRequest(translated.chatBody, group);
    const shell: ResponseShell = {
      id: input.completionId,
      model: input.model,
      createdAt: Math.floor(this.clock() / 1000),
      echo: translated.echo,
      // Calls of a flattened namespace tool name their namespace again, as the caller declared it.
      namespaces: translated.namespaces,
      ...(asked.sealReasoning ? { sealReasoning: (text: string) => sealReasoning(this.sealKey, text) } : {}),
    };
    return { asked, translated, group, chat, shell };
  }

  /** The conversation before this turn: the earlier response's input items, then its output. */
  async #earlier(input: ResponseInput, id: string): Promise<JsonObject[]> {
    const record = this.store ? await this.store.get(input.keyId, id, storeContext(input)) : undefined;
    if (!record) {
      throw new GatewayError('response_not_found', {
        param: 'previous_response_id',
        message: `Previous response with id '${id}' not found.`,
      });
    }
    const items = JSON.parse(record.inputItems.toString('utf8')) as unknown;
    const response = JSON.parse(record.response.toString('utf8')) as unknown;
    const output = isObject(response) && Array.isArray(response.output) ? response.output : [];
    return [...(Array.isArray(items) ? items : []), ...output].filter(isObject);
  }

  /** Keeps the response when asked; a store that fails costs the caller the later lookups, not this answer. */
  async #keep(input: ResponseInput, call: Prepared, response: Buffer): Promise<void> {
    if (!call.asked.store || !this.store) return;
    const record = {
      id: input.completionId,
      keyId: input.keyId,
      response,
      inputItems: Buffer.from(JSON.stringify(call.translated.items)),
      createdAtMs: this.clock(),
    };
    await this.store.put(record, storeContext(input)).catch((error: unknown) => {
      this.logger.warn({ ...fieldsOf(input.scope), err: error, responseId: input.completionId }, 'could not store a response');
    });
  }
}

function storeContext(input: ResponseInput): StoreContext {
  return { requestId: input.requestId, scope: input.scope, deadline: input.deadline, signal: input.signal };
}
