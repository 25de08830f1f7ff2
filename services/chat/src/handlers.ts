import type { ChatGroupConfig } from '@gateway/config';
import type { GrpcServer } from '@gateway/grpc';
import type { ChatServiceHandlers, ModelGroup } from '@gateway/protos';
import { deploymentHealthMessage } from '@gateway/runtime';
import type { Router } from '@gateway/upstream';
import { completionInput, messageInput, responseInput } from './call-inputs.js';
import type { ChatCompletions } from './domain/completions.js';
import type { AnthropicMessages } from './messages/messages.js';
import type { Responses } from './responses/responses.js';

// The gRPC handlers of gateway.chat.v1.ChatService: each dialect's RPCs to its domain object,
// each wrapped by the server (errors to statuses, scope, metrics).

export interface ChatHandlerDeps {
  completions: ChatCompletions;
  responses: Responses;
  messages: AnthropicMessages;
  router: Router<ChatGroupConfig>;
  /** The groups this replica serves (credentials are read once, at start). */
  served: ModelGroup[];
}

export function chatHandlers(
  server: GrpcServer,
  { completions, responses, messages, router, served }: ChatHandlerDeps,
): ChatServiceHandlers {
  return {
    ListModels: server.unary('ListModels', async () => ({ groups: served })),
    CreateChatCompletion: server.unary('CreateChatCompletion', async (request, call) => {
      const { body, usage } = await completions.create(completionInput(request, call));
      return { body, usage };
    }),
    StreamChatCompletion: server.serverStream('StreamChatCompletion', async (request, write, call) => {
      await completions.stream(completionInput(request, call), (chunks, usage) => write({ chunks, usage: usage ?? null }));
    }),
    CreateResponse: server.unary('CreateResponse', async (request, call) => {
      const { body, usage, dropped } = await responses.create(responseInput(request, call));
      return { body, usage, dropped_tools: dropped };
    }),
    StreamResponse: server.serverStream('StreamResponse', async (request, write, call) => {
      await responses.stream(responseInput(request, call), (events, usage, dropped) =>
        write({ events, usage: usage ?? null, dropped_tools: dropped ?? [] }),
      );
    }),
    CreateAnthropicMessage: server.unary('CreateAnthropicMessage', async (request, call) => {
      const { body, usage, dropped } = await messages.create(messageInput(request, call));
      return { body, usage, dropped_tools: dropped };
    }),
    StreamAnthropicMessage: server.serverStream('StreamAnthropicMessage', async (request, write, call) => {
      await messages.stream(messageInput(request, call), (events, usage, dropped) =>
        write({ events, usage: usage ?? null, dropped_tools: dropped ?? [] }),
      );
    }),
    CountAnthropicTokens: server.unary('CountAnthropicTokens', async (request) => ({
      input_tokens: messages.countTokens(request.group, request.body),
    })),
    GetUpstreamHealth: server.unary('GetUpstreamHealth', async () => ({ deployments: router.health().map(deploymentHealthMessage) })),
  };
}
