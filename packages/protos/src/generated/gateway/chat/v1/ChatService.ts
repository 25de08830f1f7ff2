// Original file: proto/gateway/chat/v1/chat.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CountAnthropicTokensRequest as _gateway_chat_v1_CountAnthropicTokensRequest, CountAnthropicTokensRequest__Output as _gateway_chat_v1_CountAnthropicTokensRequest__Output } from '../../../gateway/chat/v1/CountAnthropicTokensRequest.js';
import type { CountAnthropicTokensResponse as _gateway_chat_v1_CountAnthropicTokensResponse, CountAnthropicTokensResponse__Output as _gateway_chat_v1_CountAnthropicTokensResponse__Output } from '../../../gateway/chat/v1/CountAnthropicTokensResponse.js';
import type { CreateAnthropicMessageRequest as _gateway_chat_v1_CreateAnthropicMessageRequest, CreateAnthropicMessageRequest__Output as _gateway_chat_v1_CreateAnthropicMessageRequest__Output } from '../../../gateway/chat/v1/CreateAnthropicMessageRequest.js';
import type { CreateAnthropicMessageResponse as _gateway_chat_v1_CreateAnthropicMessageResponse, CreateAnthropicMessageResponse__Output as _gateway_chat_v1_CreateAnthropicMessageResponse__Output } from '../../../gateway/chat/v1/CreateAnthropicMessageResponse.js';
import type { CreateChatCompletionRequest as _gateway_chat_v1_CreateChatCompletionRequest, CreateChatCompletionRequest__Output as _gateway_chat_v1_CreateChatCompletionRequest__Output } from '../../../gateway/chat/v1/CreateChatCompletionRequest.js';
import type { CreateChatCompletionResponse as _gateway_chat_v1_CreateChatCompletionResponse, CreateChatCompletionResponse__Output as _gateway_chat_v1_CreateChatCompletionResponse__Output } from '../../../gateway/chat/v1/CreateChatCompletionResponse.js';
import type { CreateResponseRequest as _gateway_chat_v1_CreateResponseRequest, CreateResponseRequest__Output as _gateway_chat_v1_CreateResponseRequest__Output } from '../../../gateway/chat/v1/CreateResponseRequest.js';
import type { CreateResponseResponse as _gateway_chat_v1_CreateResponseResponse, CreateResponseResponse__Output as _gateway_chat_v1_CreateResponseResponse__Output } from '../../../gateway/chat/v1/CreateResponseResponse.js';
import type { GetUpstreamHealthRequest as _gateway_chat_v1_GetUpstreamHealthRequest, GetUpstreamHealthRequest__Output as _gateway_chat_v1_GetUpstreamHealthRequest__Output } from '../../../gateway/chat/v1/GetUpstreamHealthRequest.js';
import type { GetUpstreamHealthResponse as _gateway_chat_v1_GetUpstreamHealthResponse, GetUpstreamHealthResponse__Output as _gateway_chat_v1_GetUpstreamHealthResponse__Output } from '../../../gateway/chat/v1/GetUpstreamHealthResponse.js';
import type { ListModelsRequest as _gateway_chat_v1_ListModelsRequest, ListModelsRequest__Output as _gateway_chat_v1_ListModelsRequest__Output } from '../../../gateway/chat/v1/ListModelsRequest.js';
import type { ListModelsResponse as _gateway_chat_v1_ListModelsResponse, ListModelsResponse__Output as _gateway_chat_v1_ListModelsResponse__Output } from '../../../gateway/chat/v1/ListModelsResponse.js';
import type { StreamAnthropicMessageRequest as _gateway_chat_v1_StreamAnthropicMessageRequest, StreamAnthropicMessageRequest__Output as _gateway_chat_v1_StreamAnthropicMessageRequest__Output } from '../../../gateway/chat/v1/StreamAnthropicMessageRequest.js';
import type { StreamAnthropicMessageResponse as _gateway_chat_v1_StreamAnthropicMessageResponse, StreamAnthropicMessageResponse__Output as _gateway_chat_v1_StreamAnthropicMessageResponse__Output } from '../../../gateway/chat/v1/StreamAnthropicMessageResponse.js';
import type { StreamChatCompletionRequest as _gateway_chat_v1_StreamChatCompletionRequest, StreamChatCompletionRequest__Output as _gateway_chat_v1_StreamChatCompletionRequest__Output } from '../../../gateway/chat/v1/StreamChatCompletionRequest.js';
import type { StreamChatCompletionResponse as _gateway_chat_v1_StreamChatCompletionResponse, StreamChatCompletionResponse__Output as _gateway_chat_v1_StreamChatCompletionResponse__Output } from '../../../gateway/chat/v1/StreamChatCompletionResponse.js';
import type { StreamResponseRequest as _gateway_chat_v1_StreamResponseRequest, StreamResponseRequest__Output as _gateway_chat_v1_StreamResponseRequest__Output } from '../../../gateway/chat/v1/StreamResponseRequest.js';
import type { StreamResponseResponse as _gateway_chat_v1_StreamResponseResponse, StreamResponseResponse__Output as _gateway_chat_v1_StreamResponseResponse__Output } from '../../../gateway/chat/v1/StreamResponseResponse.js';

/**
 * Chat completions: model-group routing, provider adapters and metering.
 */
export interface ChatServiceClient extends grpc.Client {
  /**
   * POST /v1/messages/count_tokens: the prompt's input tokens as the metering counts them.
   */
  CountAnthropicTokens(argument: _gateway_chat_v1_CountAnthropicTokensRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CountAnthropicTokensResponse__Output>): grpc.ClientUnaryCall;
  CountAnthropicTokens(argument: _gateway_chat_v1_CountAnthropicTokensRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_chat_v1_CountAnthropicTokensResponse__Output>): grpc.ClientUnaryCall;
  CountAnthropicTokens(argument: _gateway_chat_v1_CountAnthropicTokensRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CountAnthropicTokensResponse__Output>): grpc.ClientUnaryCall;
  CountAnthropicTokens(argument: _gateway_chat_v1_CountAnthropicTokensRequest, callback: grpc.requestCallback<_gateway_chat_v1_CountAnthropicTokensResponse__Output>): grpc.ClientUnaryCall;
  /**
   * POST /v1/messages/count_tokens: the prompt's input tokens as the metering counts them.
   */
  countAnthropicTokens(argument: _gateway_chat_v1_CountAnthropicTokensRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CountAnthropicTokensResponse__Output>): grpc.ClientUnaryCall;
  countAnthropicTokens(argument: _gateway_chat_v1_CountAnthropicTokensRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_chat_v1_CountAnthropicTokensResponse__Output>): grpc.ClientUnaryCall;
  countAnthropicTokens(argument: _gateway_chat_v1_CountAnthropicTokensRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CountAnthropicTokensResponse__Output>): grpc.ClientUnaryCall;
  countAnthropicTokens(argument: _gateway_chat_v1_CountAnthropicTokensRequest, callback: grpc.requestCallback<_gateway_chat_v1_CountAnthropicTokensResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The Anthropic Messages API (POST /v1/messages): translated onto the same routing, budgets and
   * metering as a chat completion. An older replica answers UNIMPLEMENTED.
   */
  CreateAnthropicMessage(argument: _gateway_chat_v1_CreateAnthropicMessageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CreateAnthropicMessageResponse__Output>): grpc.ClientUnaryCall;
  CreateAnthropicMessage(argument: _gateway_chat_v1_CreateAnthropicMessageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_chat_v1_CreateAnthropicMessageResponse__Output>): grpc.ClientUnaryCall;
  CreateAnthropicMessage(argument: _gateway_chat_v1_CreateAnthropicMessageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CreateAnthropicMessageResponse__Output>): grpc.ClientUnaryCall;
  CreateAnthropicMessage(argument: _gateway_chat_v1_CreateAnthropicMessageRequest, callback: grpc.requestCallback<_gateway_chat_v1_CreateAnthropicMessageResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The Anthropic Messages API (POST /v1/messages): translated onto the same routing, budgets and
   * metering as a chat completion. An older replica answers UNIMPLEMENTED.
   */
  createAnthropicMessage(argument: _gateway_chat_v1_CreateAnthropicMessageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CreateAnthropicMessageResponse__Output>): grpc.ClientUnaryCall;
  createAnthropicMessage(argument: _gateway_chat_v1_CreateAnthropicMessageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_chat_v1_CreateAnthropicMessageResponse__Output>): grpc.ClientUnaryCall;
  createAnthropicMessage(argument: _gateway_chat_v1_CreateAnthropicMessageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CreateAnthropicMessageResponse__Output>): grpc.ClientUnaryCall;
  createAnthropicMessage(argument: _gateway_chat_v1_CreateAnthropicMessageRequest, callback: grpc.requestCallback<_gateway_chat_v1_CreateAnthropicMessageResponse__Output>): grpc.ClientUnaryCall;
  
  CreateChatCompletion(argument: _gateway_chat_v1_CreateChatCompletionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CreateChatCompletionResponse__Output>): grpc.ClientUnaryCall;
  CreateChatCompletion(argument: _gateway_chat_v1_CreateChatCompletionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_chat_v1_CreateChatCompletionResponse__Output>): grpc.ClientUnaryCall;
  CreateChatCompletion(argument: _gateway_chat_v1_CreateChatCompletionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CreateChatCompletionResponse__Output>): grpc.ClientUnaryCall;
  CreateChatCompletion(argument: _gateway_chat_v1_CreateChatCompletionRequest, callback: grpc.requestCallback<_gateway_chat_v1_CreateChatCompletionResponse__Output>): grpc.ClientUnaryCall;
  createChatCompletion(argument: _gateway_chat_v1_CreateChatCompletionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CreateChatCompletionResponse__Output>): grpc.ClientUnaryCall;
  createChatCompletion(argument: _gateway_chat_v1_CreateChatCompletionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_chat_v1_CreateChatCompletionResponse__Output>): grpc.ClientUnaryCall;
  createChatCompletion(argument: _gateway_chat_v1_CreateChatCompletionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CreateChatCompletionResponse__Output>): grpc.ClientUnaryCall;
  createChatCompletion(argument: _gateway_chat_v1_CreateChatCompletionRequest, callback: grpc.requestCallback<_gateway_chat_v1_CreateChatCompletionResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The Responses API (POST /v1/responses): translated onto the same routing, budgets and
   * metering as a chat completion. An older replica answers UNIMPLEMENTED.
   */
  CreateResponse(argument: _gateway_chat_v1_CreateResponseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CreateResponseResponse__Output>): grpc.ClientUnaryCall;
  CreateResponse(argument: _gateway_chat_v1_CreateResponseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_chat_v1_CreateResponseResponse__Output>): grpc.ClientUnaryCall;
  CreateResponse(argument: _gateway_chat_v1_CreateResponseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CreateResponseResponse__Output>): grpc.ClientUnaryCall;
  CreateResponse(argument: _gateway_chat_v1_CreateResponseRequest, callback: grpc.requestCallback<_gateway_chat_v1_CreateResponseResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The Responses API (POST /v1/responses): translated onto the same routing, budgets and
   * metering as a chat completion. An older replica answers UNIMPLEMENTED.
   */
  createResponse(argument: _gateway_chat_v1_CreateResponseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CreateResponseResponse__Output>): grpc.ClientUnaryCall;
  createResponse(argument: _gateway_chat_v1_CreateResponseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_chat_v1_CreateResponseResponse__Output>): grpc.ClientUnaryCall;
  createResponse(argument: _gateway_chat_v1_CreateResponseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_CreateResponseResponse__Output>): grpc.ClientUnaryCall;
  createResponse(argument: _gateway_chat_v1_CreateResponseRequest, callback: grpc.requestCallback<_gateway_chat_v1_CreateResponseResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * What this replica's router knows of each served deployment (the admin API's upstream health).
   */
  GetUpstreamHealth(argument: _gateway_chat_v1_GetUpstreamHealthRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  GetUpstreamHealth(argument: _gateway_chat_v1_GetUpstreamHealthRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_chat_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  GetUpstreamHealth(argument: _gateway_chat_v1_GetUpstreamHealthRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  GetUpstreamHealth(argument: _gateway_chat_v1_GetUpstreamHealthRequest, callback: grpc.requestCallback<_gateway_chat_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  /**
   * What this replica's router knows of each served deployment (the admin API's upstream health).
   */
  getUpstreamHealth(argument: _gateway_chat_v1_GetUpstreamHealthRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  getUpstreamHealth(argument: _gateway_chat_v1_GetUpstreamHealthRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_chat_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  getUpstreamHealth(argument: _gateway_chat_v1_GetUpstreamHealthRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  getUpstreamHealth(argument: _gateway_chat_v1_GetUpstreamHealthRequest, callback: grpc.requestCallback<_gateway_chat_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The chat groups this deployment serves (a credential is configured).
   */
  ListModels(argument: _gateway_chat_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _gateway_chat_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_chat_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _gateway_chat_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _gateway_chat_v1_ListModelsRequest, callback: grpc.requestCallback<_gateway_chat_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The chat groups this deployment serves (a credential is configured).
   */
  listModels(argument: _gateway_chat_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _gateway_chat_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_chat_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _gateway_chat_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_chat_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _gateway_chat_v1_ListModelsRequest, callback: grpc.requestCallback<_gateway_chat_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The same with `stream: true`: Anthropic's events as server-sent event frames.
   */
  StreamAnthropicMessage(argument: _gateway_chat_v1_StreamAnthropicMessageRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_chat_v1_StreamAnthropicMessageResponse__Output>;
  StreamAnthropicMessage(argument: _gateway_chat_v1_StreamAnthropicMessageRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_chat_v1_StreamAnthropicMessageResponse__Output>;
  /**
   * The same with `stream: true`: Anthropic's events as server-sent event frames.
   */
  streamAnthropicMessage(argument: _gateway_chat_v1_StreamAnthropicMessageRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_chat_v1_StreamAnthropicMessageResponse__Output>;
  streamAnthropicMessage(argument: _gateway_chat_v1_StreamAnthropicMessageRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_chat_v1_StreamAnthropicMessageResponse__Output>;
  
  /**
   * The same call with `stream: true`: the upstream's chunks as they arrive.
   */
  StreamChatCompletion(argument: _gateway_chat_v1_StreamChatCompletionRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_chat_v1_StreamChatCompletionResponse__Output>;
  StreamChatCompletion(argument: _gateway_chat_v1_StreamChatCompletionRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_chat_v1_StreamChatCompletionResponse__Output>;
  /**
   * The same call with `stream: true`: the upstream's chunks as they arrive.
   */
  streamChatCompletion(argument: _gateway_chat_v1_StreamChatCompletionRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_chat_v1_StreamChatCompletionResponse__Output>;
  streamChatCompletion(argument: _gateway_chat_v1_StreamChatCompletionRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_chat_v1_StreamChatCompletionResponse__Output>;
  
  /**
   * The same with `stream: true`: the Responses events as server-sent event frames.
   */
  StreamResponse(argument: _gateway_chat_v1_StreamResponseRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_chat_v1_StreamResponseResponse__Output>;
  StreamResponse(argument: _gateway_chat_v1_StreamResponseRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_chat_v1_StreamResponseResponse__Output>;
  /**
   * The same with `stream: true`: the Responses events as server-sent event frames.
   */
  streamResponse(argument: _gateway_chat_v1_StreamResponseRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_chat_v1_StreamResponseResponse__Output>;
  streamResponse(argument: _gateway_chat_v1_StreamResponseRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_chat_v1_StreamResponseResponse__Output>;
  
}

/**
 * Chat completions: model-group routing, provider adapters and metering.
 */
export interface ChatServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * POST /v1/messages/count_tokens: the prompt's input tokens as the metering counts them.
   */
  CountAnthropicTokens: grpc.handleUnaryCall<_gateway_chat_v1_CountAnthropicTokensRequest__Output, _gateway_chat_v1_CountAnthropicTokensResponse>;
  
  /**
   * The Anthropic Messages API (POST /v1/messages): translated onto the same routing, budgets and
   * metering as a chat completion. An older replica answers UNIMPLEMENTED.
   */
  CreateAnthropicMessage: grpc.handleUnaryCall<_gateway_chat_v1_CreateAnthropicMessageRequest__Output, _gateway_chat_v1_CreateAnthropicMessageResponse>;
  
  CreateChatCompletion: grpc.handleUnaryCall<_gateway_chat_v1_CreateChatCompletionRequest__Output, _gateway_chat_v1_CreateChatCompletionResponse>;
  
  /**
   * The Responses API (POST /v1/responses): translated onto the same routing, budgets and
   * metering as a chat completion. An older replica answers UNIMPLEMENTED.
   */
  CreateResponse: grpc.handleUnaryCall<_gateway_chat_v1_CreateResponseRequest__Output, _gateway_chat_v1_CreateResponseResponse>;
  
  /**
   * What this replica's router knows of each served deployment (the admin API's upstream health).
   */
  GetUpstreamHealth: grpc.handleUnaryCall<_gateway_chat_v1_GetUpstreamHealthRequest__Output, _gateway_chat_v1_GetUpstreamHealthResponse>;
  
  /**
   * The chat groups this deployment serves (a credential is configured).
   */
  ListModels: grpc.handleUnaryCall<_gateway_chat_v1_ListModelsRequest__Output, _gateway_chat_v1_ListModelsResponse>;
  
  /**
   * The same with `stream: true`: Anthropic's events as server-sent event frames.
   */
  StreamAnthropicMessage: grpc.handleServerStreamingCall<_gateway_chat_v1_StreamAnthropicMessageRequest__Output, _gateway_chat_v1_StreamAnthropicMessageResponse>;
  
  /**
   * The same call with `stream: true`: the upstream's chunks as they arrive.
   */
  StreamChatCompletion: grpc.handleServerStreamingCall<_gateway_chat_v1_StreamChatCompletionRequest__Output, _gateway_chat_v1_StreamChatCompletionResponse>;
  
  /**
   * The same with `stream: true`: the Responses events as server-sent event frames.
   */
  StreamResponse: grpc.handleServerStreamingCall<_gateway_chat_v1_StreamResponseRequest__Output, _gateway_chat_v1_StreamResponseResponse>;
  
}

export interface ChatServiceDefinition extends grpc.ServiceDefinition {
  CountAnthropicTokens: MethodDefinition<_gateway_chat_v1_CountAnthropicTokensRequest, _gateway_chat_v1_CountAnthropicTokensResponse, _gateway_chat_v1_CountAnthropicTokensRequest__Output, _gateway_chat_v1_CountAnthropicTokensResponse__Output>
  CreateAnthropicMessage: MethodDefinition<_gateway_chat_v1_CreateAnthropicMessageRequest, _gateway_chat_v1_CreateAnthropicMessageResponse, _gateway_chat_v1_CreateAnthropicMessageRequest__Output, _gateway_chat_v1_CreateAnthropicMessageResponse__Output>
  CreateChatCompletion: MethodDefinition<_gateway_chat_v1_CreateChatCompletionRequest, _gateway_chat_v1_CreateChatCompletionResponse, _gateway_chat_v1_CreateChatCompletionRequest__Output, _gateway_chat_v1_CreateChatCompletionResponse__Output>
  CreateResponse: MethodDefinition<_gateway_chat_v1_CreateResponseRequest, _gateway_chat_v1_CreateResponseResponse, _gateway_chat_v1_CreateResponseRequest__Output, _gateway_chat_v1_CreateResponseResponse__Output>
  GetUpstreamHealth: MethodDefinition<_gateway_chat_v1_GetUpstreamHealthRequest, _gateway_chat_v1_GetUpstreamHealthResponse, _gateway_chat_v1_GetUpstreamHealthRequest__Output, _gateway_chat_v1_GetUpstreamHealthResponse__Output>
  ListModels: MethodDefinition<_gateway_chat_v1_ListModelsRequest, _gateway_chat_v1_ListModelsResponse, _gateway_chat_v1_ListModelsRequest__Output, _gateway_chat_v1_ListModelsResponse__Output>
  StreamAnthropicMessage: MethodDefinition<_gateway_chat_v1_StreamAnthropicMessageRequest, _gateway_chat_v1_StreamAnthropicMessageResponse, _gateway_chat_v1_StreamAnthropicMessageRequest__Output, _gateway_chat_v1_StreamAnthropicMessageResponse__Output>
  StreamChatCompletion: MethodDefinition<_gateway_chat_v1_StreamChatCompletionRequest, _gateway_chat_v1_StreamChatCompletionResponse, _gateway_chat_v1_StreamChatCompletionRequest__Output, _gateway_chat_v1_StreamChatCompletionResponse__Output>
  StreamResponse: MethodDefinition<_gateway_chat_v1_StreamResponseRequest, _gateway_chat_v1_StreamResponseResponse, _gateway_chat_v1_StreamResponseRequest__Output, _gateway_chat_v1_StreamResponseResponse__Output>
}
