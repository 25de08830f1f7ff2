import type * as grpc from '@grpc/grpc-js';
import { callMetadata, createClient, DEFAULT_DEADLINE_MS, unary, upstreamMsOf, type CallContext } from '@gateway/grpc';
import {
  protos,
  type ChatServiceClient,
  type DeploymentHealth__Output,
  type MeteredUsage__Output,
  type ModelGroup__Output,
} from '@gateway/protos';

export interface CompletionCall {
  /** The response's id and the spend event's idempotency id, so a repeated call bills once. */
  completionId: string;
  keyId: string;
  /** As the caller sent it. */
  model: string;
  /** The group id it resolved to. */
  group: string;
  /** The caller's JSON body. */
  body: Buffer;
}

/** A plain completion: the response body, and how long the chat service waited on upstreams for it. */
export interface Completion {
  body: Buffer;
  /** From the response's x-upstream-ms metadata; undefined when the service did not say. */
  upstreamMs: number | undefined;
  /** Tokens and price as metered; null when the upstream gave no usage. */
  usage: MeteredUsage__Output | null;
}

/**
 * A streamed completion: messages of one or more chunks; cancel() aborts the upstream call. Its
 * leading metadata ('metadata' event, before the first message) names the upstream time to the
 * first chunk (read it with upstreamMsOf).
 */
export type CompletionStream = grpc.ClientReadableStream<StreamMessage>;

/** One message of a stream: chunks, or (the last, once metered) none and the usage. */
export interface StreamMessage {
  chunks: Buffer[];
  usage: MeteredUsage__Output | null;
}

/** A Responses API call (POST /v1/responses), as the edge hands it on. */
export interface ResponseCall {
  /** "resp_…": the response's id and the spend event's idempotency id. */
  responseId: string;
  keyId: string;
  model: string;
  group: string;
  /** The caller's JSON body. */
  body: Buffer;
  /** The operator keeps no responses for this key. */
  storageOff: boolean;
}

/** A plain response: its body, the tool types dropped, and what the chat service waited on upstreams. */
export interface ResponseResult extends Completion {
  droppedTools: string[];
}

/** One message of another dialect's stream: whole SSE frames; the first names the dropped tools, the last the usage. */
export interface DialectStreamMessage {
  events: Buffer[];
  usage: MeteredUsage__Output | null;
  dropped_tools: string[];
}

export type ResponseStreamMessage = DialectStreamMessage;
export type ResponseStream = grpc.ClientReadableStream<DialectStreamMessage>;

/** An Anthropic Messages API call (POST /v1/messages), as the edge hands it on. */
export interface AnthropicMessageCall {
  /** "msg_…": the message's id and the spend event's idempotency id. */
  messageId: string;
  keyId: string;
  model: string;
  group: string;
  /** The caller's JSON body. */
  body: Buffer;
}

export type AnthropicMessageStream = grpc.ClientReadableStream<DialectStreamMessage>;

/** The chat service as the edge sees it. */
export class ChatClient {
  readonly #client: ChatServiceClient;

  constructor(address: string) {
    this.#client = createClient(protos().gateway.chat.v1.ChatService, address);
  }

  async listModels(context?: CallContext): Promise<ModelGroup__Output[]> {
    return (await unary(this.#client, this.#client.ListModels, {}, context)).groups;
  }

  /** The answering replica's view of its upstream deployments. */
  async upstreamHealth(context?: CallContext): Promise<DeploymentHealth__Output[]> {
    return (await unary(this.#client, this.#client.GetUpstreamHealth, {}, context)).deployments;
  }

  /**
   * Sent again once when the connection failed or dropped (another replica takes it); the
   * completion id makes a repeat of a call that did complete bill once. Handlers' own errors are
   * never retried here: the chat service retries upstreams itself.
   */
  async createChatCompletion(call: CompletionCall, context: CallContext = {}): Promise<Completion> {
    let upstreamMs: number | undefined;
    const response = await unary(
      this.#client,
      this.#client.CreateChatCompletion,
      {
        key_id: call.keyId,
        model: call.model,
        group: call.group,
        body: call.body,
        completion_id: call.completionId,
      },
      {
        retries: 1,
        ...context,
        onResponseMetadata: (metadata) => {
          upstreamMs = upstreamMsOf(metadata);
        },
      },
    );
    return { body: response.body, upstreamMs, usage: response.usage };
  }

  streamChatCompletion(call: CompletionCall, context: CallContext = {}): CompletionStream {
    return this.#client.StreamChatCompletion(
      { key_id: call.keyId, model: call.model, group: call.group, body: call.body, completion_id: call.completionId },
      callMetadata(context),
      { deadline: Date.now() + (context.deadlineMs ?? DEFAULT_DEADLINE_MS) },
    );
  }

  /** As createChatCompletion: sent again once on a dropped connection; the response id bills it once. */
  async createResponse(call: ResponseCall, context: CallContext = {}): Promise<ResponseResult> {
    let upstreamMs: number | undefined;
    const response = await unary(this.#client, this.#client.CreateResponse, responseRequest(call), {
      retries: 1,
      ...context,
      onResponseMetadata: (metadata) => {
        upstreamMs = upstreamMsOf(metadata);
      },
    });
    return { body: response.body, upstreamMs, usage: response.usage, droppedTools: response.dropped_tools };
  }

  streamResponse(call: ResponseCall, context: CallContext = {}): ResponseStream {
    return this.#client.StreamResponse(responseRequest(call), callMetadata(context), {
      deadline: Date.now() + (context.deadlineMs ?? DEFAULT_DEADLINE_MS),
    });
  }

  /** As createChatCompletion: sent again once on a dropped connection; the message id bills it once. */
  async createAnthropicMessage(call: AnthropicMessageCall, context: CallContext = {}): Promise<ResponseResult> {
    let upstreamMs: number | undefined;
    const response = await unary(this.#client, this.#client.CreateAnthropicMessage, messageRequest(call), {
      retries: 1,
      ...context,
      onResponseMetadata: (metadata) => {
        upstreamMs = upstreamMsOf(metadata);
      },
    });
    return { body: response.body, upstreamMs, usage: response.usage, droppedTools: response.dropped_tools };
  }

  streamAnthropicMessage(call: AnthropicMessageCall, context: CallContext = {}): AnthropicMessageStream {
    return this.#client.StreamAnthropicMessage(messageRequest(call), callMetadata(context), {
      deadline: Date.now() + (context.deadlineMs ?? DEFAULT_DEADLINE_MS),
    });
  }

  /** The prompt's input tokens as the metering would count them (POST /v1/messages/count_tokens). */
  async countAnthropicTokens(group: string, body: Buffer, context: CallContext = {}): Promise<number> {
    return (await unary(this.#client, this.#client.CountAnthropicTokens, { group, body }, context)).input_tokens;
  }

  close(): void {
    this.#client.close();
  }
}

function responseRequest(call: ResponseCall) {
  return {
    key_id: call.keyId,
    model: call.model,
    group: call.group,
    body: call.body,
    response_id: call.responseId,
    storage_off: call.storageOff,
  };
}

function messageRequest(call: AnthropicMessageCall) {
  return { key_id: call.keyId, model: call.model, group: call.group, body: call.body, message_id: call.messageId };
}
