import type * as grpc from '@grpc/grpc-js';
import { callMetadata, createClient, DEFAULT_DEADLINE_MS, unary, type CallContext } from '@gateway/grpc';
import { protos, type ChatServiceClient, type ModelGroup__Output } from '@gateway/protos';

export interface CompletionCall {
  keyId: string;
  /** As the caller sent it. */
  model: string;
  /** The group id it resolved to. */
  group: string;
  /** The caller's JSON body. */
  body: Buffer;
}

/** A streamed completion: messages of one or more chunks; cancel() aborts the upstream call. */
export type CompletionStream = grpc.ClientReadableStream<{ chunks: Buffer[] }>;

/** The chat service as the edge sees it. */
export class ChatClient {
  readonly #client: ChatServiceClient;

  constructor(address: string) {
    this.#client = createClient(protos().gateway.chat.v1.ChatService, address);
  }

  async listModels(context?: CallContext): Promise<ModelGroup__Output[]> {
    return (await unary(this.#client, this.#client.ListModels, {}, context)).groups;
  }

  /** Not retried here: the chat service retries upstreams itself, and a repeat could bill twice. */
  async createChatCompletion(call: CompletionCall, context: CallContext = {}): Promise<Buffer> {
    const response = await unary(this.#client, this.#client.CreateChatCompletion, {
      key_id: call.keyId, model: call.model, group: call.group, body: call.body,
    }, { retries: 0, ...context });
    return response.body;
  }

  streamChatCompletion(call: CompletionCall, context: CallContext = {}): CompletionStream {
    return this.#client.StreamChatCompletion(
      { key_id: call.keyId, model: call.model, group: call.group, body: call.body },
      callMetadata(context),
      { deadline: Date.now() + (context.deadlineMs ?? DEFAULT_DEADLINE_MS) },
    );
  }

  close(): void {
    this.#client.close();
  }
}
