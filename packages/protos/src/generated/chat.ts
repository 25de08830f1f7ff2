import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ChatServiceClient as _gateway_chat_v1_ChatServiceClient, ChatServiceDefinition as _gateway_chat_v1_ChatServiceDefinition } from './gateway/chat/v1/ChatService.js';
import type { CountAnthropicTokensRequest as _gateway_chat_v1_CountAnthropicTokensRequest, CountAnthropicTokensRequest__Output as _gateway_chat_v1_CountAnthropicTokensRequest__Output } from './gateway/chat/v1/CountAnthropicTokensRequest.js';
import type { CountAnthropicTokensResponse as _gateway_chat_v1_CountAnthropicTokensResponse, CountAnthropicTokensResponse__Output as _gateway_chat_v1_CountAnthropicTokensResponse__Output } from './gateway/chat/v1/CountAnthropicTokensResponse.js';
import type { CreateAnthropicMessageRequest as _gateway_chat_v1_CreateAnthropicMessageRequest, CreateAnthropicMessageRequest__Output as _gateway_chat_v1_CreateAnthropicMessageRequest__Output } from './gateway/chat/v1/CreateAnthropicMessageRequest.js';
import type { CreateAnthropicMessageResponse as _gateway_chat_v1_CreateAnthropicMessageResponse, CreateAnthropicMessageResponse__Output as _gateway_chat_v1_CreateAnthropicMessageResponse__Output } from './gateway/chat/v1/CreateAnthropicMessageResponse.js';
import type { CreateChatCompletionRequest as _gateway_chat_v1_CreateChatCompletionRequest, CreateChatCompletionRequest__Output as _gateway_chat_v1_CreateChatCompletionRequest__Output } from './gateway/chat/v1/CreateChatCompletionRequest.js';
import type { CreateChatCompletionResponse as _gateway_chat_v1_CreateChatCompletionResponse, CreateChatCompletionResponse__Output as _gateway_chat_v1_CreateChatCompletionResponse__Output } from './gateway/chat/v1/CreateChatCompletionResponse.js';
import type { CreateResponseRequest as _gateway_chat_v1_CreateResponseRequest, CreateResponseRequest__Output as _gateway_chat_v1_CreateResponseRequest__Output } from './gateway/chat/v1/CreateResponseRequest.js';
import type { CreateResponseResponse as _gateway_chat_v1_CreateResponseResponse, CreateResponseResponse__Output as _gateway_chat_v1_CreateResponseResponse__Output } from './gateway/chat/v1/CreateResponseResponse.js';
import type { GetUpstreamHealthRequest as _gateway_chat_v1_GetUpstreamHealthRequest, GetUpstreamHealthRequest__Output as _gateway_chat_v1_GetUpstreamHealthRequest__Output } from './gateway/chat/v1/GetUpstreamHealthRequest.js';
import type { GetUpstreamHealthResponse as _gateway_chat_v1_GetUpstreamHealthResponse, GetUpstreamHealthResponse__Output as _gateway_chat_v1_GetUpstreamHealthResponse__Output } from './gateway/chat/v1/GetUpstreamHealthResponse.js';
import type { ListModelsRequest as _gateway_chat_v1_ListModelsRequest, ListModelsRequest__Output as _gateway_chat_v1_ListModelsRequest__Output } from './gateway/chat/v1/ListModelsRequest.js';
import type { ListModelsResponse as _gateway_chat_v1_ListModelsResponse, ListModelsResponse__Output as _gateway_chat_v1_ListModelsResponse__Output } from './gateway/chat/v1/ListModelsResponse.js';
import type { MeteredUsage as _gateway_chat_v1_MeteredUsage, MeteredUsage__Output as _gateway_chat_v1_MeteredUsage__Output } from './gateway/chat/v1/MeteredUsage.js';
import type { StreamAnthropicMessageRequest as _gateway_chat_v1_StreamAnthropicMessageRequest, StreamAnthropicMessageRequest__Output as _gateway_chat_v1_StreamAnthropicMessageRequest__Output } from './gateway/chat/v1/StreamAnthropicMessageRequest.js';
import type { StreamAnthropicMessageResponse as _gateway_chat_v1_StreamAnthropicMessageResponse, StreamAnthropicMessageResponse__Output as _gateway_chat_v1_StreamAnthropicMessageResponse__Output } from './gateway/chat/v1/StreamAnthropicMessageResponse.js';
import type { StreamChatCompletionRequest as _gateway_chat_v1_StreamChatCompletionRequest, StreamChatCompletionRequest__Output as _gateway_chat_v1_StreamChatCompletionRequest__Output } from './gateway/chat/v1/StreamChatCompletionRequest.js';
import type { StreamChatCompletionResponse as _gateway_chat_v1_StreamChatCompletionResponse, StreamChatCompletionResponse__Output as _gateway_chat_v1_StreamChatCompletionResponse__Output } from './gateway/chat/v1/StreamChatCompletionResponse.js';
import type { StreamResponseRequest as _gateway_chat_v1_StreamResponseRequest, StreamResponseRequest__Output as _gateway_chat_v1_StreamResponseRequest__Output } from './gateway/chat/v1/StreamResponseRequest.js';
import type { StreamResponseResponse as _gateway_chat_v1_StreamResponseResponse, StreamResponseResponse__Output as _gateway_chat_v1_StreamResponseResponse__Output } from './gateway/chat/v1/StreamResponseResponse.js';
import type { DeploymentHealth as _gateway_common_v1_DeploymentHealth, DeploymentHealth__Output as _gateway_common_v1_DeploymentHealth__Output } from './gateway/common/v1/DeploymentHealth.js';
import type { ModelGroup as _gateway_common_v1_ModelGroup, ModelGroup__Output as _gateway_common_v1_ModelGroup__Output } from './gateway/common/v1/ModelGroup.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  gateway: {
    chat: {
      v1: {
        /**
         * Chat completions: model-group routing, provider adapters and metering.
         */
        ChatService: SubtypeConstructor<typeof grpc.Client, _gateway_chat_v1_ChatServiceClient> & { service: _gateway_chat_v1_ChatServiceDefinition }
        CountAnthropicTokensRequest: MessageTypeDefinition<_gateway_chat_v1_CountAnthropicTokensRequest, _gateway_chat_v1_CountAnthropicTokensRequest__Output>
        CountAnthropicTokensResponse: MessageTypeDefinition<_gateway_chat_v1_CountAnthropicTokensResponse, _gateway_chat_v1_CountAnthropicTokensResponse__Output>
        CreateAnthropicMessageRequest: MessageTypeDefinition<_gateway_chat_v1_CreateAnthropicMessageRequest, _gateway_chat_v1_CreateAnthropicMessageRequest__Output>
        CreateAnthropicMessageResponse: MessageTypeDefinition<_gateway_chat_v1_CreateAnthropicMessageResponse, _gateway_chat_v1_CreateAnthropicMessageResponse__Output>
        CreateChatCompletionRequest: MessageTypeDefinition<_gateway_chat_v1_CreateChatCompletionRequest, _gateway_chat_v1_CreateChatCompletionRequest__Output>
        CreateChatCompletionResponse: MessageTypeDefinition<_gateway_chat_v1_CreateChatCompletionResponse, _gateway_chat_v1_CreateChatCompletionResponse__Output>
        CreateResponseRequest: MessageTypeDefinition<_gateway_chat_v1_CreateResponseRequest, _gateway_chat_v1_CreateResponseRequest__Output>
        CreateResponseResponse: MessageTypeDefinition<_gateway_chat_v1_CreateResponseResponse, _gateway_chat_v1_CreateResponseResponse__Output>
        GetUpstreamHealthRequest: MessageTypeDefinition<_gateway_chat_v1_GetUpstreamHealthRequest, _gateway_chat_v1_GetUpstreamHealthRequest__Output>
        GetUpstreamHealthResponse: MessageTypeDefinition<_gateway_chat_v1_GetUpstreamHealthResponse, _gateway_chat_v1_GetUpstreamHealthResponse__Output>
        ListModelsRequest: MessageTypeDefinition<_gateway_chat_v1_ListModelsRequest, _gateway_chat_v1_ListModelsRequest__Output>
        ListModelsResponse: MessageTypeDefinition<_gateway_chat_v1_ListModelsResponse, _gateway_chat_v1_ListModelsResponse__Output>
        MeteredUsage: MessageTypeDefinition<_gateway_chat_v1_MeteredUsage, _gateway_chat_v1_MeteredUsage__Output>
        StreamAnthropicMessageRequest: MessageTypeDefinition<_gateway_chat_v1_StreamAnthropicMessageRequest, _gateway_chat_v1_StreamAnthropicMessageRequest__Output>
        StreamAnthropicMessageResponse: MessageTypeDefinition<_gateway_chat_v1_StreamAnthropicMessageResponse, _gateway_chat_v1_StreamAnthropicMessageResponse__Output>
        StreamChatCompletionRequest: MessageTypeDefinition<_gateway_chat_v1_StreamChatCompletionRequest, _gateway_chat_v1_StreamChatCompletionRequest__Output>
        StreamChatCompletionResponse: MessageTypeDefinition<_gateway_chat_v1_StreamChatCompletionResponse, _gateway_chat_v1_StreamChatCompletionResponse__Output>
        StreamResponseRequest: MessageTypeDefinition<_gateway_chat_v1_StreamResponseRequest, _gateway_chat_v1_StreamResponseRequest__Output>
        StreamResponseResponse: MessageTypeDefinition<_gateway_chat_v1_StreamResponseResponse, _gateway_chat_v1_StreamResponseResponse__Output>
      }
    }
    common: {
      v1: {
        DeploymentHealth: MessageTypeDefinition<_gateway_common_v1_DeploymentHealth, _gateway_common_v1_DeploymentHealth__Output>
        DeploymentState: EnumTypeDefinition
        ModelGroup: MessageTypeDefinition<_gateway_common_v1_ModelGroup, _gateway_common_v1_ModelGroup__Output>
        ModelGroupMode: EnumTypeDefinition
      }
    }
  }
}

